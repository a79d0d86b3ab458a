import packageJson from "../../package.json";

/**
 * The running app's version: package.json's, plus the commit when the build set one (Fly sets
 * FLY_IMAGE_REF; a Docker build may pass GIT_COMMIT). Shown on /admin/system and written into
 * every backup's manifest.
 */
const build = process.env.GIT_COMMIT?.slice(0, 12) ?? process.env.FLY_IMAGE_REF?.split(":").pop();

export const APP_VERSION = build ? `${packageJson.version}+${build}` : packageJson.version;
