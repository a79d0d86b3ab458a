import path from "node:path";
import { z } from "zod";

const schema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  PORT: z.coerce.number().int().positive().default(3000),
  DATABASE_PATH: z.string().min(1).default("db/app.sqlite"),
  UPLOADS_DIR: z.string().min(1).default("uploads/"),
  MAIL_DIR: z.string().min(1).default("db/mail/"),
  SMTP_URL: z.string().optional(),
  MAIL_FROM: z.string().default("CotizaHub <no-responder@cotizahub.example>"),
  APP_URL: z.string().url().optional(),
  SESSION_SECRET: z.string().optional(),
  // Uploaded files in an S3-compatible bucket instead of UPLOADS_DIR (which still stages uploads).
  S3_BUCKET: z.string().optional(),
  S3_ENDPOINT: z.string().url().optional(),
  S3_REGION: z.string().default("auto"),
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),
  // Continuous replication of DATABASE_PATH (scripts/start.sh, litestream.yml); shown on /admin/system.
  LITESTREAM_REPLICA_URL: z.string().optional(),
});

type Env = z.infer<typeof schema> & {
  databasePath: string;
  uploadsDir: string;
  mailDir: string;
};

function readEnv(): Env {
  const parsed = schema.safeParse(
    Object.fromEntries(Object.entries(process.env).filter(([, value]) => value !== "")),
  );
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ");
    throw new Error(`Configuración inválida en las variables de entorno: ${problems}`);
  }
  return {
    ...parsed.data,
    databasePath: path.resolve(parsed.data.DATABASE_PATH),
    uploadsDir: path.resolve(parsed.data.UPLOADS_DIR),
    mailDir: path.resolve(parsed.data.MAIL_DIR),
  };
}

export const env = readEnv();

/** The public origin used in e-mail links; falls back to the local server. */
export function appUrl(): string {
  return (env.APP_URL ?? `http://localhost:${env.PORT}`).replace(/\/$/, "");
}
