/**
 * A server killed mid-upload, for tests/integration/storage.test.ts: the checked file reaches the
 * storage backend of its environment (the folder, or S3 when S3_BUCKET is set), and the process
 * dies with SIGKILL inside the transaction that would have stored its key.
 */
import { stageBytes, storeUpload } from "~/services/storage.server";

const PDF = Buffer.from("%PDF-1.4\n%%EOF\n");
await storeUpload(await stageBytes(PDF, "pdf"), async () => {
  process.kill(process.pid, "SIGKILL");
  await new Promise(() => undefined);
  throw new Error("unreachable");
});
