# The README's quick start: `make demo` runs the offline demo, `make test` the test suite. Each first installs
# the Debian packages the build needs when pkg-config cannot find them (Scripts/setup.sh).
#
# Our own builds treat warnings as errors through -Xswiftc rather than in Package.swift: SwiftPM refuses
# unsafe flags in a package depended on by version. Both targets pass the same flags, so neither rebuilds
# what the other built.
SWIFT_FLAGS := -Xswiftc -warnings-as-errors

.PHONY: demo test setup consumer

setup:
	@bash Scripts/setup.sh

demo: setup
	swift run $(SWIFT_FLAGS) webimage-demo

test: setup
	swift build --build-tests $(SWIFT_FLAGS)
	swift test $(SWIFT_FLAGS)

# A package depending on a tagged clone of this checkout by URL and version (run by CI).
consumer: setup
	bash Scripts/consumer-check.sh
