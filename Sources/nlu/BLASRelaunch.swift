import Foundation
import NLUKit

/// Re-executes `nlu` once with `OPENBLAS_CORETYPE` set when OpenBLAS misdetected the CPU
/// (see `BLASCoreCheck`): the variable only takes effect at library load, before `main`.
enum BLASRelaunch {
    static func relaunchIfNeeded() {
        #if os(Linux)
        guard let core = BLASCoreCheck.recommendedCoreType,
              ProcessInfo.processInfo.environment["NLUKIT_RELAUNCHED"] == nil else { return }
        setenv("OPENBLAS_CORETYPE", core, 1)
        setenv("NLUKIT_RELAUNCHED", "1", 1)  // guards against a loop if the variable has no effect
        let arguments = CommandLine.arguments
        var cArguments: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) }
        cArguments.append(nil)
        execv("/proc/self/exe", &cArguments)
        // execv returns only on failure: run on with the slower kernels rather than fail.
        #endif
    }
}
