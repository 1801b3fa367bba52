# The README's quick start: `make demo` runs the offline demo, `make test` the test suite. Each first installs
# the Debian packages the build needs when pkg-config cannot find them (Scripts/setup.sh).
#
# Our own builds treat warnings as errors through -Xswiftc rather than in Package.swift: SwiftPM refuses
# unsafe flags in a package depended on by version. Both targets pass the same flags, so neither rebuilds
# what the other built.
SWIFT_FLAGS := -Xswiftc -warnings-as-errors

# At most this many tests run at once. Unbounded, every test starts together and a test's awaited step can wait
# minutes behind the others' queued work on a two-core machine's two pool threads, which turns deadlines into
# flakes; eight keeps both cores busy (a whole run takes as long) with the queue short.
TEST_PARALLELISM ?= 8

# Seconds each fuzz target runs in `make fuzz`.
FUZZ_SECONDS ?= 60

.PHONY: demo test setup consumer fuzz image image-test

setup:
	@bash Scripts/setup.sh

demo: setup
	swift run $(SWIFT_FLAGS) webimage-demo

test: setup
	python3 Scripts/check-imports.py
	swift build --build-tests $(SWIFT_FLAGS)
	SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH=$(TEST_PARALLELISM) swift test $(SWIFT_FLAGS)

# A package depending on a tagged clone of this checkout by URL and version (run by CI).
consumer: setup
	bash Scripts/consumer-check.sh

# The libFuzzer targets of Fuzz/ (a package of their own), each run for FUZZ_SECONDS; fails on any crash.
fuzz: setup
	FUZZ_SECONDS=$(FUZZ_SECONDS) bash Fuzz/run.sh

# The service as an OCI image (linux/amd64): webimage in release on a Debian bookworm minbase root made by
# mmdebstrap, written as an oci-archive in .build-image/ (its path is the last line printed, with its sizes and
# layer digests before it). Needs root (mmdebstrap, podman) and Debian's archive; no registry.
image: setup
	@bash Scripts/image/setup.sh
	@bash Scripts/image/build.sh

# Loads that archive into a fresh podman store and runs it as an operator does (Scripts/image/test.sh).
image-test:
	@bash Scripts/image/setup.sh
	@bash Scripts/image/test.sh
