#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Testing
@testable import NLUCore
@testable import NLUInputOutput
import NLUTestSupport

/// Writers never destroy what they did not write: a model package replaces only a package of its
/// kind, atomic files go through links and into special files, outputs never overwrite inputs.
@Suite struct SafeDestinationTests {
    struct ToyConfig: Codable { var size: Int }
    let weights: [String: Tensor<Float>] = ["w": Tensor([1, 2, 3])]

    func save(_ url: URL, kind: String = "toy", replacing: ModelPackage.Replacement = .sameKind) throws {
        try ModelPackage.save(to: url, kind: kind, config: ToyConfig(size: 3), weights: weights, replacing: replacing)
    }

    func expectRefused(_ url: URL, saying text: String, kind: String = "toy") {
        do {
            try save(url, kind: kind)
            Issue.record("saving over \(url.path) should have been refused")
        } catch let error as ModelPackageError {
            guard case .destinationInUse = error else { Issue.record("unexpected \(error)"); return }
            #expect(error.description.contains(text), "\(error)")
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    /// The folder check probes by creating a file; a pipe or device at the output is written in place,
    /// and its folder (/proc/self/fd for a process substitution, /dev for /dev/stdout) cannot take a
    /// new file: such an output must pass, a missing or unwritable folder must not.
    @Test func theOutputFolderCheckLetsPipesThroughAndRefusesWhatCannotBeWritten() throws {
        #if os(Linux)
        let folder = try TestScratch.folder("nlu-fifo")
        defer { try? FileManager.default.removeItem(at: folder) }
        let fifo = folder.appendingPathComponent("pipe").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let descriptor = open(fifo, O_RDWR)  // O_RDWR: a FIFO opens at once on Linux
        #expect(descriptor >= 0)
        defer { close(descriptor) }
        #expect(throws: Never.self) { try OutputPath.checkFolderWritable(URL(fileURLWithPath: "/proc/self/fd/\(descriptor)")) }
        #expect(throws: OutputPath.Error.self) { try OutputPath.checkFolderWritable(URL(fileURLWithPath: "/proc/self/fd/new-file")) }
        #endif
        #expect(throws: OutputPath.Error.self) {
            try OutputPath.checkFolderWritable(URL(fileURLWithPath: "/nonexistent-\(UUID().uuidString)/out.json"))
        }
    }

    @Test func aFolderWithOtherFilesIsRefusedAndKept() throws {
        let directory = try TestScratch.folder()
        defer { try? FileManager.default.removeItem(at: directory) }
        let folder = directory.appendingPathComponent("v")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
        try Data("x\n".utf8).write(to: folder.appendingPathComponent("notes.txt"))
        expectRefused(folder, saying: "a folder that is not a model package (1 entry: notes.txt)")
        #expect(try String(contentsOf: folder.appendingPathComponent("notes.txt"), encoding: .utf8) == "x\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["v"], "no temporary left")
    }

    /// Replacing a package removes its folder: a user's files put into it would go too.
    @Test func aPackageHoldingTheUsersFilesIsRefusedAndKept() throws {
        let directory = try TestScratch.folder()
        defer { try? FileManager.default.removeItem(at: directory) }
        let package = directory.appendingPathComponent("p.nlumodel")
        try save(package)
        try Data("x\n".utf8).write(to: package.appendingPathComponent("notes.txt"))
        try FileManager.default.createDirectory(at: package.appendingPathComponent("sub"), withIntermediateDirectories: false)
        try Data("a,b\n".utf8).write(to: package.appendingPathComponent("sub/important.csv"))
        expectRefused(package, saying: "holds a model package with entries a model package does not have (notes.txt, sub/); "
                      + "refusing to replace it (move them out of the package, or choose another path)")
        #expect(try String(contentsOf: package.appendingPathComponent("sub/important.csv"), encoding: .utf8) == "a,b\n")
        #expect(try String(contentsOf: package.appendingPathComponent("notes.txt"), encoding: .utf8) == "x\n")
    }

    @Test func aFileTheCurrentDirectoryAndAnotherKindAreRefused() throws {
        let directory = try TestScratch.folder()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("data.json")
        try Data("{}".utf8).write(to: file)
        expectRefused(file, saying: "a file, not a model package")
        #expect(try Data(contentsOf: file) == Data("{}".utf8))

        expectRefused(URL(fileURLWithPath: "."), saying: "the current directory")
        expectRefused(URL(fileURLWithPath: ""), saying: "the current directory")

        let package = directory.appendingPathComponent("lm.nlumodel")
        try save(package, kind: "language-model")
        expectRefused(package, saying: "a model package of kind 'language-model', not 'toy'; refusing to replace it (pass --force")
        try save(package, kind: "toy", replacing: .anyModelPackage)
        #expect(try ModelPackage.load(from: package, kind: "toy", config: ToyConfig.self).config.size == 3)
    }

    @Test func aPackageOfTheSameKindAnEmptyFolderAndALinkedPackageAreReplaced() throws {
        let directory = try TestScratch.folder()
        defer { try? FileManager.default.removeItem(at: directory) }
        let empty = directory.appendingPathComponent("new.nlumodel")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: false)
        try save(empty)
        try save(empty)
        #expect(try ModelPackage.load(from: empty, kind: "toy", config: ToyConfig.self).config.size == 3)

        let link = directory.appendingPathComponent("current.nlumodel")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: "new.nlumodel")
        try save(link)
        #expect(ExistingPath(link) == .symbolicLink, "the link is kept, its target replaced")
        #expect(Set(try FileManager.default.contentsOfDirectory(atPath: directory.path)) == ["new.nlumodel", "current.nlumodel"])
    }

    @Test func temporariesOfDeadWritersAreSweptAndLiveOnesKept() throws {
        let directory = try TestScratch.folder()
        defer { try? FileManager.default.removeItem(at: directory) }
        let target = directory.appendingPathComponent("out.json")
        // A child that has exited: its pid is free (not reused this fast in practice).
        let child = Process()
        child.executableURL = URL(fileURLWithPath: "/bin/true")
        try child.run()
        child.waitUntilExit()
        let dead = directory.appendingPathComponent("out.json.tmp-\(child.processIdentifier)-abc123")
        let alive = directory.appendingPathComponent("out.json.tmp-1-abc123")  // init always runs
        let foreign = directory.appendingPathComponent("out.json.tmp-notes")
        for url in [dead, alive, foreign] { try Data("t".utf8).write(to: url) }
        try AtomicFile.write(to: target) { try $0.write(Data("new".utf8)) }
        let names = Set(try FileManager.default.contentsOfDirectory(atPath: directory.path))
        #expect(names == ["out.json", alive.lastPathComponent, foreign.lastPathComponent])
    }

    @Test func atomicWritesFollowLinksAndWriteSpecialFilesInPlace() throws {
        let directory = try TestScratch.folder()
        defer { try? FileManager.default.removeItem(at: directory) }
        let target = directory.appendingPathComponent("real.txt")
        try Data("old".utf8).write(to: target)
        chmod(target.path, 0o600)
        let link = directory.appendingPathComponent("link.txt")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: "real.txt")
        try AtomicFile.write(to: link) { try $0.write(Data("new".utf8)) }
        #expect(ExistingPath(link) == .symbolicLink)
        #expect(try String(contentsOf: target, encoding: .utf8) == "new")
        #expect((try FileManager.default.attributesOfItem(atPath: target.path)[.posixPermissions] as? Int) == 0o600)

        // /dev/full: written in place, so its error is reported and the device node stays.
        #expect(throws: AtomicFile.WriteError(file: URL(fileURLWithPath: "/dev/full"), reason: "cannot write: No space left on device")) {
            try AtomicFile.write(to: URL(fileURLWithPath: "/dev/full")) { try $0.write(Data("x".utf8)) }
        }
        #expect(ExistingPath(URL(fileURLWithPath: "/dev/full")) == .specialFile)
        let fifo = directory.appendingPathComponent("fifo")
        #expect(mkfifo(fifo.path, 0o600) == 0)
        final class Received: @unchecked Sendable { var data = Data() }
        let received = Received(), done = DispatchSemaphore(value: 0)
        let reader = Thread {
            received.data = FileHandle(forReadingAtPath: fifo.path)?.readDataToEndOfFile() ?? Data()
            done.signal()
        }
        reader.start()
        try AtomicFile.write(to: fifo) { try $0.write(Data("through".utf8)) }
        done.wait()
        #expect(received.data == Data("through".utf8))
        #expect(ExistingPath(fifo) == .specialFile, "the FIFO was not replaced by a regular file")
        #expect(throws: AtomicFile.WriteError.self) { try AtomicFile.write(to: directory) { _ in } }
    }

    @Test func anOutputThatIsAnInputIsRefused() throws {
        let directory = try TestScratch.folder()
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appendingPathComponent("ds.json")
        try Data("{}".utf8).write(to: input)
        let link = directory.appendingPathComponent("alias.json")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: input.path)
        #expect(throws: OutputPath.Error.self) { try OutputPath.checkNotAnInput(input, inputs: [input]) }
        #expect(throws: OutputPath.Error.self) { try OutputPath.checkNotAnInput(link, inputs: [input]) }
        #expect(throws: OutputPath.Error.self) { try OutputPath.checkNotAnInput(directory, inputs: [input]) }
        try OutputPath.checkNotAnInput(directory.appendingPathComponent("out.json"), inputs: [input])
    }

    @Test func streamOutputTellsAClosedReaderFromAFailure() throws {
        StreamOutput.reportClosedPipesAsErrors()
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        close(ends[0])
        defer { close(ends[1]) }
        #expect(throws: StreamOutput.Failure.readerClosed) {
            try StreamOutput(descriptor: ends[1], name: "the pipe").write("hello\n")
        }
        let full = open("/dev/full", O_WRONLY)
        defer { close(full) }
        #expect(throws: StreamOutput.Failure.failed(stream: "standard output", reason: "No space left on device")) {
            try StreamOutput(descriptor: full, name: "standard output").write("hello\n")
        }
    }
}
