#pragma once
// PocketSphinx 5prealpha and the sphinxbase pieces ears uses (logging control).
#include <pocketsphinx.h>
#include <sphinxbase/err.h>
