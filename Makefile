# Reprise: `make run` plays the samples, `make test` runs the whole suite. Both install what they need.
PREFIX ?= /usr/local
DESTDIR ?=
SWIFT ?= swift

.PHONY: all deps test-deps binaries build run test package-test deb bench bench-deps fuzz soak install uninstall clean

all: build

# What building and running need; `test-deps` adds the rigs the tests drive and the packaging tools.
deps:
	SWIFT="$(SWIFT)" scripts/install-deps.sh

test-deps:
	SWIFT="$(SWIFT)" scripts/install-deps.sh --test

# The Swift runtime linked statically (fewer pages mapped than its shared libraries), with lld; relative relocations
# packed (RELR, glibc 2.36+): the loader reads a few KiB instead of 660 KiB of them at every start. No $ORIGIN
# run path: with the runtime linked in, the binaries load only the system's libraries. Every function in a section
# of its own (the C shims' too), and the ones a playing service runs (scripts/hot-functions.order, made by scripts/hot-functions.sh)
# placed first: the pages it touches lie together. No symbol exported (the toolchain's static-stdlib arguments export
# every Swift symbol of ours: 9,300 names whose tables the loader searched for every library loaded after).
RELEASE_LINK = --static-swift-stdlib --disable-local-rpath -Xswiftc -use-ld=lld -Xlinker -z -Xlinker pack-relative-relocs \
	-Xswiftc -Xfrontend -Xswiftc -function-sections -Xcc -ffunction-sections -Xlinker --symbol-ordering-file=$(CURDIR)/scripts/hot-functions.order \
	-Xlinker --no-warn-symbol-ordering -Xlinker --no-export-dynamic \
	-Xlinker -T -Xlinker $(CURDIR)/scripts/private-functions.ld
# Extra SwiftPM flags (the Debian build passes --disable-sandbox).
SWIFTPM_FLAGS ?=

build: deps
	$(MAKE) binaries

# The two release binaries, assuming the dependencies are there (debian/rules builds with this).
binaries:
	$(SWIFT) build $(SWIFTPM_FLAGS) -c release $(RELEASE_LINK) --product reprised
	$(SWIFT) build $(SWIFTPM_FLAGS) -c release $(RELEASE_LINK) --product reprise
	$(SWIFT) build $(SWIFTPM_FLAGS) -c release $(RELEASE_LINK) --product reprise-tag-reader
	$(SWIFT) build $(SWIFTPM_FLAGS) -c release $(RELEASE_LINK) --product reprise-snapcast

run: build
	REPRISE_BINARY=.build/release/reprise scripts/demo.sh

test: test-deps
	SWIFT="$(SWIFT)" scripts/run-tests.sh
	$(MAKE) package-test

# The Debian package, built offline from an export of this tree with its SwiftPM dependency vendored: build/deb/.
deb:
	SWIFT="$(SWIFT)" scripts/install-deps.sh --deb
	SWIFT="$(SWIFT)" scripts/build-deb.sh

# Builds the package, lints and validates it, installs it, starts it by D-Bus activation, plays, and purges it.
package-test: deb
	scripts/package-test.sh

bench: build
	$(SWIFT) build -c release $(RELEASE_LINK) --product swift-floor
	$(SWIFT) build -c release --product reprise-bench
	$(SWIFT) build -c release --product wl-virtual-input
	mkdir -p build
	.build/release/reprise-bench --binary .build/release/reprise --output build/bench.md

# Hostile D-Bus input: CALLS generated calls (default 100,000) from several connections at a running Reprise,
# then the same with hostile files and playlists (FIFOs, devices, non-UTF-8 names, malformed playlists) among them.
fuzz: build
	$(SWIFT) build -c release --product reprise-fuzz
	.build/release/reprise-fuzz --binary .build/release/reprise --calls $${CALLS:-100000}
	.build/release/reprise-fuzz --binary .build/release/reprise --calls $${CALLS:-100000} --hostile-files --max-rss-growth 64

# A mixed random workload for SOAK_SECONDS (default 60) with calls interrupting and outputs coming and going;
# reports calls per second, reply latency, errors and RSS over time, and fails if RSS does not stay flat.
SOAK_SECONDS ?= 60
soak: build
	$(SWIFT) build -c release --product reprise-soak
	.build/release/reprise-soak --binary .build/release/reprise --seconds $(SOAK_SECONDS) --output build/soak.md

bench-deps: deps
	scripts/install-bench-deps.sh

install: build
	DESTDIR="$(DESTDIR)" PREFIX="$(PREFIX)" scripts/install.sh

uninstall:
	DESTDIR="$(DESTDIR)" PREFIX="$(PREFIX)" scripts/install.sh --uninstall

clean:
	rm -rf .build build
