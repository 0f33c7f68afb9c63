# Reprise: `make run` plays the samples, `make test` runs the whole suite. Both install what they need.
PREFIX ?= /usr/local
DESTDIR ?=
BINDIR = $(DESTDIR)$(PREFIX)/bin
DATADIR = $(DESTDIR)$(PREFIX)/share
SWIFT ?= swift

.PHONY: all deps build run test install uninstall clean

all: build

deps:
	scripts/install-deps.sh

build: deps
	$(SWIFT) build -c release

run: build
	REPRISE_BINARY=.build/release/reprise scripts/demo.sh

test: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --no-parallel

install: build
	install -Dm755 .build/release/reprise $(BINDIR)/reprise
	install -Dm644 data/reprise.desktop $(DATADIR)/applications/reprise.desktop

uninstall:
	rm -f $(BINDIR)/reprise $(DATADIR)/applications/reprise.desktop

clean:
	rm -rf .build build
