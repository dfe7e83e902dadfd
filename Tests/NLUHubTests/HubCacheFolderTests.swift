import Foundation
import NLUCore
import NLUTestSupport
import Testing
@testable import NLUHub

/// With HOME and every cache variable unset there is no cache folder: the lookup and the downloader say
/// so, naming the variables, instead of guessing one (and `nlu similarity` printing nothing, exit 0).
@Suite struct HubCacheFolderTests {
    @Test func noVariableMeansNoCacheFolder() throws {
        let unset = ["PATH": "/usr/bin", "HOME": "", "HF_HOME": ""]   // empty counts as unset, as in huggingface_hub
        #expect(throws: HubCacheProblem.noCacheFolder) { try ModelLocator.hubCache(environment: unset) }
        #expect(throws: HubCacheProblem.noCacheFolder) { try ModelLocator.resolve("org/model", environment: unset) }
        #expect(throws: HubCacheProblem.noCacheFolder) { try ModelLocator.cachedModels(environment: unset) }
        #expect(throws: HubCacheProblem.noCacheFolder) { try HubConfiguration(environment: unset) }
        #expect(HubCacheProblem.noCacheFolder.description
                == "no Hugging Face cache folder to look in: HF_HUB_CACHE, HF_HOME, XDG_CACHE_HOME and HOME are all unset (set HF_HUB_CACHE to the cache folder, or HOME)")
        // A local directory needs no cache.
        let local = try TestScratch.folder()
        #expect(try ModelLocator.resolve(local.path, environment: unset).path == local.path)
    }
}
