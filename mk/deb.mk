# mk/deb.mk — make deb: a Debian package of the installed tree, included by
# the Makefile (after mk/install.mk, whose install-files rule fills the package).
#
#   make deb                         release build, Vosk and ONNX files, then deb-files
#   make deb-files EARS_BIN=...      package an already-built binary; builds nothing
#   make deb DEB_DIR=/tmp/out        where the .deb goes (default $(BUILD_DIR))
#
# The package is `make install PREFIX=/usr` staged into a DESTDIR and handed
# to dpkg-deb: /usr/bin/ears, /usr/lib/ears/ (libvosk.so, the Korean model,
# libonnxruntime.so), /usr/share/ears/frontend/, the system unit in
# /usr/lib/systemd/system, the user unit in /usr/lib/systemd/user, ears(8),
# the docs, and /etc/ears/ears.conf as a conffile (dpkg keeps an edited one
# across upgrades and asks; purge removes it). The maintainer scripts are
# packaging/deb/{postinst,prerm,postrm}.
#
# Version: what the binary prints for --version, so the package can never
# disagree with the program in it. Depends: dpkg-shlibdeps over every ELF file
# in the package (the binary, libvosk.so, libonnxruntime.so), i.e. the Debian
# packages that own the libraries they link, plus the one data package the
# default engine reads at run time (pocketsphinx-en-us), which no linker sees.
#
# DEB_STATIC=yes (the default) refuses a binary that links the Swift runtime
# dynamically: that binary runs only where the toolchain is installed, so it
# is no package for another machine. `make release` links the runtime in
# (--static-swift-stdlib); the package test packages the debug test binary
# with DEB_STATIC=no, on the machine that has the toolchain.

DEB_DIR           ?= $(BUILD_DIR)
DEB_STAGE         ?= $(BUILD_DIR)/deb-root
DEB_STATIC        ?= yes
# xz is what Debian's own archive uses; the test passes gzip -1 to keep the
# 300 MB of Korean model from costing minutes of compression on every run.
DEB_COMPRESSION   ?= xz
DEB_COMPRESS_LEVEL ?= 6
DEB_MAINTAINER    ?= $(shell git -C "$(CURDIR)" log -1 --format='%an <%ae>' 2>/dev/null || echo 'ears <root@localhost>')
DEB_ARCH          := $(shell dpkg --print-architecture 2>/dev/null || echo amd64)
# Read at run time by the default engine (PocketSphinx's US English model), not linked.
DEB_DATA_DEPENDS  := pocketsphinx-en-us
# The user unit's `default` ALSA device is PipeWire once pipewire-alsa is installed;
# `ears train` speaks with flite, festival (its English voices, and its speakers
# of other languages for part of the other speech) and espeak-ng, roughens the
# clips with sox, and makes a Korean phrase's other speech from hunspell-ko's words.
deb_comma         := ,
deb_empty         :=
deb_space         := $(deb_empty) $(deb_empty)
DEB_SUGGESTS      := pipewire-alsa, flite, festival, festvox-kallpc16k, festvox-kdlpc16k, festvox-us-slt-hts, \
                     espeak-ng, sox, hunspell-ko, $(subst $(deb_space),$(deb_comma) ,$(strip $(OTHER_LANGUAGE_VOICES)))

.PHONY: deb deb-files

## deb: release build, the Vosk and ONNX files, then the package (see deb-files).
deb: release vosk-setup onnx-setup
	@$(MAKE) --no-print-directory deb-files

## deb-files: package $(EARS_BIN) and the files install-files installs into $(DEB_DIR)/ears_<version>_$(DEB_ARCH).deb; builds nothing.
deb-files:
	@command -v dpkg-deb >/dev/null 2>&1 && command -v dpkg-shlibdeps >/dev/null 2>&1 || \
	  { echo "deb: dpkg-deb or dpkg-shlibdeps is missing; run apt-get install dpkg-dev (make setup installs it)" >&2; exit 1; }
	@test -x "$(EARS_BIN)" || { echo "deb: $(EARS_BIN) is not there; run make release (or make deb)" >&2; exit 1; }
	@if [ "$(DEB_STATIC)" = yes ] && readelf -d "$(EARS_BIN)" | grep -q 'NEEDED.*libswiftCore'; then \
	  echo "deb: $(EARS_BIN) links the Swift runtime dynamically and would run only where the toolchain is; build it with make release (--static-swift-stdlib)" >&2; exit 1; \
	fi
	@version=$$("$(EARS_BIN)" --version | sed -n 's/^ears //p'); \
	[ -n "$$version" ] || { echo "deb: $(EARS_BIN) --version printed no version" >&2; exit 1; }; \
	echo "deb: ears $$version for $(DEB_ARCH), staged in $(DEB_STAGE)"; \
	rm -rf "$(DEB_STAGE)" && mkdir -p "$(DEB_STAGE)" "$(DEB_DIR)"
	@umask 022 && $(MAKE) --no-print-directory install-files DESTDIR="$(abspath $(DEB_STAGE))" PREFIX=/usr \
	  SYSCONFDIR=/etc SYSTEMD_UNIT_DIR=/usr/lib/systemd/system SYSTEMD_USER_UNIT_DIR=/usr/lib/systemd/user \
	  EARS_BIN="$(EARS_BIN)" MAN_PAGE="$(abspath $(DEB_STAGE)).ears.8" >/dev/null
	@rm -f "$(abspath $(DEB_STAGE)).ears.8"
# Debian policy: manual pages compressed, without the time stamp (-n). The
# DEBIAN directory exists before dpkg-shlibdeps runs: it marks the staged
# tree as the package's root, so $$ORIGIN in RUNPATHs resolves in it.
	gzip -9n "$(DEB_STAGE)/usr/share/man/man8/ears.8"
	@set -e; umask 022; stage="$(abspath $(DEB_STAGE))"; \
	version=$$("$(EARS_BIN)" --version | sed -n 's/^ears //p'); \
	size=$$(du -sk --apparent-size "$$stage" | cut -f1); \
	work=$$(mktemp -d); trap 'rm -rf "$$work"' EXIT; \
	mkdir -p "$$stage/DEBIAN" "$$work/debian" && printf 'Source: ears\n\nPackage: ears\nArchitecture: any\n' > "$$work/debian/control"; \
	elves=$$(find "$$stage/usr/bin" "$$stage/usr/lib/ears" -maxdepth 1 -type f -exec sh -c 'head -c 4 "$$1" | grep -q ELF' _ {} \; -print); \
	shlibs=$$(cd "$$work" && dpkg-shlibdeps --warnings=0 -O $$(printf -- ' -e%s' $$elves) | sed -n 's/^shlibs:Depends=//p'); \
	[ -n "$$shlibs" ] || { echo "deb: dpkg-shlibdeps found no library dependencies" >&2; exit 1; }; \
	{ echo "Package: ears"; echo "Version: $$version"; echo "Architecture: $(DEB_ARCH)"; \
	  echo "Maintainer: $(DEB_MAINTAINER)"; echo "Installed-Size: $$size"; \
	  echo "Depends: $$shlibs, $(DEB_DATA_DEPENDS)"; echo "Suggests: $(DEB_SUGGESTS)"; \
	  echo "Section: sound"; echo "Priority: optional"; \
	  echo "Description: always-on wake-phrase listener"; \
	  echo " ears listens to a microphone for written wake phrases (\"hey cordelia\")"; \
	  echo " and hands the speech after one to a hook program or a Wyoming client."; \
	  echo " Nothing it hears is written to disk or logged. Includes the hardened"; \
	  echo " system unit, a per-user unit for PipeWire desktops, the Vosk engine with"; \
	  echo " its Korean model, and ONNX Runtime for trained phrase models."; \
	} > "$$stage/DEBIAN/control"; \
	echo /etc/ears/ears.conf > "$$stage/DEBIAN/conffiles"; \
	for script in postinst prerm postrm; do install -m 0755 "packaging/deb/$$script" "$$stage/DEBIAN/$$script"; done; \
	(cd "$$stage" && find . -type f ! -path './DEBIAN/*' -printf '%P\n' | LC_ALL=C sort | xargs -d '\n' md5sum > DEBIAN/md5sums); \
	deb="$(DEB_DIR)/ears_$${version}_$(DEB_ARCH).deb"; \
	dpkg-deb --root-owner-group -Z$(DEB_COMPRESSION) -z$(DEB_COMPRESS_LEVEL) --build "$$stage" "$$deb" >/dev/null; \
	echo "deb: $$deb ($$(du -h "$$deb" | cut -f1)); Depends: $$shlibs, $(DEB_DATA_DEPENDS)"; \
	echo "deb: install it with apt-get install $$(realpath "$$deb")"
