// Placeholder: the ONNX Runtime module (issue 11) is being written.
enum EarsONNXPlaceholder {}
