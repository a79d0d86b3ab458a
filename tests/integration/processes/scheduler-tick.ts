/**
 * A server process for tests/integration/jobs.test.ts: its own connection to the database at
 * DATABASE_PATH (the test file's), which runs one tick of the scheduled-work poller when its parent
 * writes a line to its stdin, so several of them can be started together after their slow start-up.
 */
import readline from "node:readline";
import { JOB_HANDLERS } from "~/models/scheduled-jobs.server";
import { runScheduledWork } from "~/services/background.server";
import { db } from "~/services/db.server";
import { deliverDueMail } from "~/services/mailer.server";

const input = readline.createInterface({ input: process.stdin });
process.stdout.write("ready\n");
await new Promise((resolve) => input.once("line", resolve));
input.close();
await runScheduledWork(JOB_HANDLERS, db);
// The delivery the reminders kicked (deliverSoon, on the next turn) ends before the connection closes.
await new Promise((resolve) => setImmediate(resolve));
await deliverDueMail();
await db.destroy();
process.stdout.write("done\n");
