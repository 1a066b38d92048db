#pragma once
// libspeexdsp's preprocessor (noise suppression), Debian libspeexdsp-dev.
#include <speex/speex_preprocess.h>
