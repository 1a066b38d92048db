// Placeholder: the speech synthesis module (issue 11) is being written.
enum EarsSynthPlaceholder {}
