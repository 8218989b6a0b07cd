/**
 * Certificates made with openssl for loopback control planes: a throwaway P-256 CA and the leaves it signs, each
 * valid for two days. Owns KubeVirt's TLS material (the front-proxy CA that kube-apiserver publishes for virt-api,
 * and the serving certificates of virt-api and virt-controller). The e2e harness (test/e2e/harness.ts) makes its
 * cluster CA and client certificates with the same helpers.
 */
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';

/** Runs openssl in `dir` (its stderr goes into the error if it fails). */
export function openssl(dir: string, args: readonly string[]): void {
  execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
}

const EC_KEY = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];

/** The extensions of a loopback serving certificate. */
const SERVING_EXTENSIONS = 'keyUsage = critical,digitalSignature,keyEncipherment\nextendedKeyUsage = serverAuth\nsubjectAltName = IP:127.0.0.1,DNS:localhost';
/** The extensions of a client certificate. */
export const CLIENT_EXTENSIONS = 'keyUsage = critical,digitalSignature,keyEncipherment\nextendedKeyUsage = clientAuth';

/** A distinguished name for openssl -subj: `cn` is the CN (a Kubernetes user) and each group becomes an O. */
export function subject(cn: string, groups: readonly string[] = []): string {
  const esc = (s: string): string => s.replace(/[/\\=+,]/g, (c) => `\\${c}`);
  return groups.map((g) => `/O=${esc(g)}`).join('') + `/CN=${esc(cn)}`;
}

/** A self-signed CA `<name>.crt`/`<name>.key` in `dir`. */
export function makeCa(dir: string, name: string, cn: string): void {
  const ext = `${name}-ca.ext`;
  fs.writeFileSync(
    path.join(dir, ext),
    '[req]\ndistinguished_name = dn\n[dn]\n[v3]\nbasicConstraints = critical,CA:TRUE\nkeyUsage = critical,keyCertSign,cRLSign,digitalSignature\nsubjectKeyIdentifier = hash\n',
  );
  openssl(dir, [
    'req',
    '-x509',
    '-new',
    ...EC_KEY,
    '-keyout',
    `${name}.key`,
    '-out',
    `${name}.crt`,
    '-days',
    '2',
    '-subj',
    `/CN=${cn}`,
    '-extensions',
    'v3',
    '-config',
    ext,
  ]);
}

/**
 * A new P-256 key `<name>.key` and a certificate request `<name>.csr` for `subj` (see subject()) in `dir`. The
 * config it writes, `<name>.ext`, also holds the extension lines that makeLeaf signs the certificate with.
 */
export function makeKeyAndCsr(dir: string, name: string, subj: string, extensions = ''): void {
  const ext = `${name}.ext`;
  fs.writeFileSync(path.join(dir, ext), `[req]\ndistinguished_name = dn\n[dn]\n[v3]\nbasicConstraints = critical,CA:FALSE\n${extensions}\n`);
  openssl(dir, ['req', '-new', ...EC_KEY, '-keyout', `${name}.key`, '-out', `${name}.csr`, '-subj', subj, '-config', ext]);
}

/** A certificate `<name>.crt`/`<name>.key` for `subj`, signed by the CA `<ca>.crt`, with the given extension lines. */
export function makeLeaf(dir: string, ca: string, name: string, subj: string, extensions: string): void {
  makeKeyAndCsr(dir, name, subj, extensions);
  openssl(dir, [
    'x509',
    '-req',
    '-in',
    `${name}.csr`,
    '-CA',
    `${ca}.crt`,
    '-CAkey',
    `${ca}.key`,
    '-CAcreateserial',
    '-days',
    '2',
    '-out',
    `${name}.crt`,
    '-extfile',
    `${name}.ext`,
    '-extensions',
    'v3',
  ]);
}

// --- KubeVirt's TLS material -----------------------------------------------------------------------------

/**
 * The front-proxy (request header) client CA and the API server's proxy client certificate, and the
 * kube-apiserver flags naming them: virt-api reads that CA from the `extension-apiserver-authentication`
 * ConfigMap the API server publishes, and does not start without it. Call before starting kube-apiserver.
 */
export function frontProxyFlags(dir: string): string[] {
  const d = path.join(dir, 'front-proxy');
  fs.mkdirSync(d, { recursive: true });
  makeCa(d, 'front-proxy-ca', 'metalslice-front-proxy-ca');
  makeLeaf(d, 'front-proxy-ca', 'front-proxy-client', subject('front-proxy-client'), CLIENT_EXTENSIONS);
  return [
    `--requestheader-client-ca-file=${path.join(d, 'front-proxy-ca.crt')}`,
    '--requestheader-allowed-names=front-proxy-client',
    '--requestheader-extra-headers-prefix=X-Remote-Extra-',
    '--requestheader-group-headers=X-Remote-Group',
    '--requestheader-username-headers=X-Remote-User',
    `--proxy-client-cert-file=${path.join(d, 'front-proxy-client.crt')}`,
    `--proxy-client-key-file=${path.join(d, 'front-proxy-client.key')}`,
  ];
}

/**
 * virt-api's serving certificate, its (unused) virt-handler client certificate, and virt-controller's serving
 * one, all under one CA (`ca.crt`); returns the directory that holds them.
 */
export function makeKubevirtCerts(dir: string): string {
  const d = path.join(dir, 'kubevirt-certs');
  fs.mkdirSync(d, { recursive: true });
  makeCa(d, 'ca', 'metalslice-kubevirt-ca');
  makeLeaf(d, 'ca', 'virt-api', subject('virt-api'), SERVING_EXTENSIONS);
  makeLeaf(d, 'ca', 'virt-handler-client', subject('virt-handler-client'), CLIENT_EXTENSIONS);
  makeLeaf(d, 'ca', 'virt-controller', subject('virt-controller'), SERVING_EXTENSIONS);
  return d;
}
