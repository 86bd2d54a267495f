import type { ConsoleSessions } from "./console-sessions.js";
import type { ConsoleUsers } from "./console-users.js";
import type { UsageReport } from "./usage-report.js";

/** What the console needs beyond the operations' dependencies: its users, sessions and usage chart. */
export interface ConsoleServices {
  users: ConsoleUsers;
  sessions: ConsoleSessions;
  usage: UsageReport;
}
