import { pathToFileURL } from "node:url";
import { runThreadsCompiled } from "../../src/adapters/threads/worker-rpc.js";
import { compiledSources, SOURCES } from "./compiled-sources.js";

// Setup file of every project: threads the code under test starts run the run's compiled copy of src/.

const compiled = compiledSources();
if (compiled !== undefined) runThreadsCompiled(pathToFileURL(`${SOURCES}/`), pathToFileURL(`${compiled}/`));
