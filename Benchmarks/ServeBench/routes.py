"""Each server's URL for "fit the source into W×H without enlarging, encode as FORMAT at QUALITY"."""
import base64
import hashlib
import hmac
import urllib.parse

from servers import Ours


def ours(source, width, height, quality, extension):
    """imgproxy's signed plain form: HMAC-SHA256(key, salt + path), base64url without padding."""
    path = "/rs:fit:%d:%d/q:%d/plain/%s@%s" % (width, height, quality, urllib.parse.quote(source, safe=""),
                                                extension)
    digest = hmac.new(bytes.fromhex(Ours.KEY), bytes.fromhex(Ours.SALT) + path.encode(), hashlib.sha256).digest()
    return "/" + base64.urlsafe_b64encode(digest).decode().rstrip("=") + path


def thumbor(source, width, height, quality, extension):
    image_format = {"webp": "webp", "jpg": "jpeg"}[extension]
    return "/unsafe/fit-in/%dx%d/filters:format(%s):quality(%d)/%s" % (width, height, image_format, quality,
                                                                         source)


def pyvips(source, width, height, quality, extension):
    return "/fit/%d/%d/%d/%s/%s" % (width, height, quality, extension, urllib.parse.quote(source, safe=""))


ALL = {"ours": ours, "thumbor": thumbor, "pyvips": pyvips}
