#pragma once
// PocketSphinx 5prealpha and the sphinxbase pieces ears uses (logging control; the language model's unigrams for ranking sound-alikes).
#include <pocketsphinx.h>
#include <sphinxbase/err.h>
#include <sphinxbase/ngram_model.h>
#include <sphinxbase/logmath.h>
// malloc_trim: the verifier hands its freed transcript search back to the system (VerifierTranscript).
#include <malloc.h>
