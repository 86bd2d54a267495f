import type { WatchService } from "../../../usecases/watches/watch-service.js";
import { ApiError } from "../../../shared/api-error.js";
import type { OperationDeps } from "../../operation.js";

/** The watch service, or `unsupported` on a server configured without a watch store (NEWSINDEX_WATCHES=off). */
export function watchesOf(deps: OperationDeps): WatchService {
  if (deps.watches === undefined) {
    throw new ApiError("unsupported", "This server keeps no watch store: watches are turned off by its operator.");
  }
  return deps.watches;
}
