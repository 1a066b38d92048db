import EarsCLI
#if canImport(Glibc)
import Glibc
#endif

exit(EarsMain.run(Array(CommandLine.arguments.dropFirst())))
