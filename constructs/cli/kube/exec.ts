/**
 * The exec credential plugins of metalslice's Kubernetes client (client.ts): running the plugin a kubeconfig
 * user names (config.ts checks that entry), bounded in time and output, and reading the token or
 * client certificate from the ExecCredential it writes. The plugin runs in a process group of its own, and the
 * timeout kills the group: a process it leaves behind holding stdout would otherwise hold the command open.
 */
import { spawn } from 'child_process';
import { escapeText, excerptText } from '../../core/base/excerpt';
import { checkPem, checkToken, ExecConfig, KubeconfigError, KubeTarget, str } from './config';
import { isRecord } from '../../core/base/records';

/** Most bytes an exec credential plugin may write to stdout (an ExecCredential is a few KiB). */
export const MAX_PLUGIN_OUTPUT_BYTES = 1024 * 1024;
/** How long an exec credential plugin may run (a cloud CLI refreshing a token can take some seconds). */
export const PLUGIN_TIMEOUT_MS = 120_000;

/** The credentials an exec plugin gives. */
interface ExecResult {
  readonly token?: string;
  readonly cert?: Buffer;
  readonly key?: Buffer;
}

/** Runs an exec credential plugin as kubectl does (KUBERNETES_EXEC_INFO, no stdin) and reads its ExecCredential. */
export function runExecPlugin(target: KubeTarget, exec: ExecConfig, timeoutMs = PLUGIN_TIMEOUT_MS): Promise<ExecResult> {
  const name = escapeText(exec.command);
  const where = `exec plugin ${name} of ${target.who}`;
  if (exec.interactiveMode === 'Always')
    return Promise.reject(new KubeconfigError(`${where} needs a terminal (interactiveMode: Always): log in with it first, or use a non-interactive mode`));
  const info = {
    apiVersion: exec.apiVersion,
    kind: 'ExecCredential',
    spec: { interactive: false, ...(exec.provideClusterInfo && target.clusterInfo ? { cluster: target.clusterInfo } : {}) },
  };
  const env: NodeJS.ProcessEnv = { ...process.env, KUBERNETES_EXEC_INFO: JSON.stringify(info) };
  for (const e of exec.env) env[e.name] = e.value;
  return new Promise((resolve, reject) => {
    const hint = exec.installHint ? `: ${excerptText(exec.installHint, 300)}` : ': install it or put it on PATH';
    // stderr is the plugin's own (a login prompt or notice), passed through as kubectl does. Detached: a group
    // of its own, which fail() kills whole.
    const child = spawn(exec.command, exec.args, { env, stdio: ['ignore', 'pipe', 'inherit'], detached: true });
    const chunks: Buffer[] = [];
    let size = 0;
    let failed: KubeconfigError | undefined;
    const fail = (e: KubeconfigError): void => {
      if (failed) return;
      failed = e;
      clearTimeout(timer);
      killGroup(child.pid);
      // Settled now, not when stdout closes: a process that escaped the group may hold it for ever.
      child.stdout.destroy();
      reject(e);
    };
    const timer = setTimeout(
      () => fail(new KubeconfigError(`${where} did not finish in ${timeoutMs / 1000} s: check that it can run without a terminal`)),
      timeoutMs,
    );
    child.stdout.on('data', (d: Buffer) => {
      size += d.length;
      if (size > MAX_PLUGIN_OUTPUT_BYTES)
        fail(new KubeconfigError(`${where} wrote more than ${MAX_PLUGIN_OUTPUT_BYTES} bytes: it must write one ExecCredential`));
      else chunks.push(d);
    });
    child.on('error', (e: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      if (failed) return;
      failed = new KubeconfigError(e.code === 'ENOENT' ? `${where} was not found${hint}` : `${where} could not start (${e.code ?? 'error'})${hint}`);
      reject(failed);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (failed) return;
      if (code !== 0)
        return reject(new KubeconfigError(`${where} failed (${signal ? `signal ${signal}` : `exit ${code}`}): see its message above, or log in again`));
      try {
        resolve(parseExecCredential(Buffer.concat(chunks).toString('utf8'), exec.apiVersion, where));
      } catch (e) {
        reject(e instanceof Error ? e : new Error(String(e)));
      }
    });
  });
}

/** Kills a plugin's process group (the plugin and whatever it started), or the plugin alone if the group is gone. */
function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
}

function parseExecCredential(text: string, apiVersion: string, where: string): ExecResult {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw new KubeconfigError(`${where} did not write an ExecCredential as JSON on stdout: check the plugin and its arguments`);
  }
  if (!isRecord(data) || data.kind !== 'ExecCredential')
    throw new KubeconfigError(`${where} wrote JSON that is not an ExecCredential: check the plugin and its arguments`);
  if (data.apiVersion !== apiVersion)
    throw new KubeconfigError(
      `${where} answered in ${excerptText(String(data.apiVersion), 60)}, not the ${apiVersion} the kubeconfig asks for: set exec.apiVersion to what it writes`,
    );
  const status = data.status;
  if (!isRecord(status)) throw new KubeconfigError(`${where} wrote an ExecCredential without status: it must give status.token or a client certificate`);
  const token = str(status.token);
  const cert = str(status.clientCertificateData);
  const key = str(status.clientKeyData);
  if ((cert === undefined) !== (key === undefined))
    throw new KubeconfigError(`${where} gave a client ${cert ? 'certificate without its key' : 'key without its certificate'}: it must give both`);
  if (token === undefined && cert === undefined) throw new KubeconfigError(`${where} gave neither status.token nor a client certificate: log in with it again`);
  return {
    ...(token === undefined ? {} : { token: checkToken(token, 'status.token', where) }),
    ...(cert && key
      ? {
          cert: checkPem(Buffer.from(cert, 'utf8'), 'cert', 'status.clientCertificateData', where),
          key: checkPem(Buffer.from(key, 'utf8'), 'key', 'status.clientKeyData', where),
        }
      : {}),
  };
}
