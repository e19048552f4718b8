// The main script of the standalone executable (npm run build:standalone). Node's single
// executable applications run one CommonJS script; uas is ES modules that load their parts when
// a command needs them. So this unpacks the bundled CLI, once per version, into a folder of the
// user's cache (private to the user, written whole or not at all), and runs it from there with
// the process's own command line. Only Node's built-ins are used here.
'use strict';
const { createHash } = require('node:crypto');
const fs = require('node:fs');
const { createRequire } = require('node:module');
const os = require('node:os');
const path = require('node:path');
const sea = require('node:sea');

/** The files of the CLI, and a digest of them all that names the folder they unpack to. */
const manifest = JSON.parse(sea.getAsset('manifest.json', 'utf8'));

function fail(message) {
  process.stderr.write(`uas: ${message}\n`);
  process.exit(1);
}

/**
 * Makes `dir` and the folders above it that are missing, one by one. Not mkdirSync's recursive
 * mode: where a folder exists yet refuses new ones with ENOENT (XDG_CACHE_HOME=/proc), that
 * loops for ever; here the error is thrown, and the caller takes a temporary folder instead.
 */
function makeFolders(dir, mode) {
  const missing = [];
  for (let at = dir; !fs.existsSync(at) && path.dirname(at) !== at; at = path.dirname(at))
    missing.unshift(at);
  for (const folder of missing) {
    try {
      fs.mkdirSync(folder, { mode });
    } catch (error) {
      if (error.code !== 'EEXIST') throw error;
    }
  }
}

/**
 * A folder of this user's: created private; refused if it is a link, someone else's, or one that
 * others may write to (they could put code of theirs where this runs it from).
 */
function privateFolder(dir) {
  makeFolders(dir, 0o700);
  const stat = fs.lstatSync(dir);
  if (!stat.isDirectory() || (process.getuid && stat.uid !== process.getuid()))
    fail(`${dir} is not a folder of this user's: remove it, or set XDG_CACHE_HOME elsewhere`);
  if ((stat.mode & 0o022) !== 0)
    fail(`${dir} may be written by other users: chmod 700 it, or set XDG_CACHE_HOME elsewhere`);
  return dir;
}

/** A folder of this run's in the temporary folder, removed when it ends. */
function temporaryFolder() {
  let dir;
  try {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'uas-'));
  } catch (error) {
    fail(
      `no folder to unpack into: no cache folder of this user's, and ${os.tmpdir()} refuses one (${error.code ?? error.message}); set XDG_CACHE_HOME or TMPDIR to a writable folder`,
    );
  }
  process.on('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/**
 * `$XDG_CACHE_HOME/uas`, else `~/.cache/uas`. A relative XDG_CACHE_HOME is ignored, as the XDG
 * spec says, and a relative home is none. A home that does not exist (a service account's
 * HOME=/nonexistent) is not made, even where it could be (as root): a temporary folder serves.
 */
function cacheRoot() {
  try {
    const xdg = process.env.XDG_CACHE_HOME;
    if (xdg && path.isAbsolute(xdg)) return privateFolder(path.join(xdg, 'uas'));
    const home = os.homedir();
    if (!path.isAbsolute(home)) throw new Error(`${home} is not an absolute path`);
    if (!fs.statSync(home).isDirectory()) throw new Error(`${home} is not a folder`);
    return privateFolder(path.join(home, '.cache', 'uas'));
  } catch {
    // No writable home (a container's nobody): a folder of this run's, removed when it ends.
    return temporaryFolder();
  }
}

/** Unpacks the CLI unless a whole copy of these very files is there already. */
function unpacked() {
  const root = cacheRoot();
  const target = path.join(root, `standalone-${manifest.version}-${manifest.digest}`);
  if (fs.existsSync(path.join(target, '.complete'))) return target;
  const staging = fs.mkdtempSync(path.join(root, '.unpacking-'));
  const digest = createHash('sha256');
  for (const file of manifest.files) {
    const bytes = Buffer.from(sea.getRawAsset(file));
    digest.update(file).update(bytes);
    fs.mkdirSync(path.dirname(path.join(staging, file)), { recursive: true });
    fs.writeFileSync(path.join(staging, file), bytes, { mode: 0o600 });
  }
  if (digest.digest('hex').slice(0, 16) !== manifest.digest) fail('the executable is damaged');
  fs.writeFileSync(path.join(staging, '.complete'), '');
  try {
    fs.renameSync(staging, target);
  } catch (error) {
    // Another run unpacked it first: its copy is as good.
    fs.rmSync(staging, { recursive: true, force: true });
    if (!fs.existsSync(path.join(target, '.complete'))) throw error;
  }
  return target;
}

const entry = path.resolve(unpacked(), 'dist', 'cli', 'start.cjs');
createRequire(entry)(entry)
  .run(process.argv)
  .then((code) => {
    process.exitCode = code;
  });
