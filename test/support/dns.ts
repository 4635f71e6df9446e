// A DNS server of the test's own, on loopback (dns2, over UDP), that the service asks through DNS_SERVERS. It answers
// TXT questions with the records the test sets, NXDOMAIN for a name without any, and SERVFAIL for a name the test
// makes fail; it records the names it was asked.
import type { AddressInfo } from 'node:net';
import { createUDPServer, Packet } from 'dns2';

/** Response codes (RFC 1035 §4.1.1), which dns2's typings leave out. */
const SERVFAIL = 2;
const NXDOMAIN = 3;

export interface TestDnsServer {
  /** The server as DNS_SERVERS takes it: `127.0.0.1:<port>`. */
  address: string;
  /** The TXT records of `name`, each value one string of at most 255 bytes, or several (a long value split). */
  setTxt(name: string, values: (string | string[])[]): void;
  /** `name` has no record any more: NXDOMAIN. */
  remove(name: string): void;
  /** Questions about `name` get SERVFAIL, until it is set or removed again. */
  fail(name: string): void;
  /** The names asked about, in order. */
  asked: string[];
  close(): Promise<void>;
}

export async function startDnsServer(): Promise<TestDnsServer> {
  const records = new Map<string, (string | string[])[]>();
  const failing = new Set<string>();
  const asked: string[] = [];
  const server = createUDPServer((request, send) => {
    const response = Packet.createResponseFromRequest(request);
    response.header.aa = 1;
    const [question] = request.questions;
    const name = question.name.toLowerCase();
    asked.push(name);
    if (failing.has(name)) response.header.rcode = SERVFAIL;
    else if (!records.has(name)) response.header.rcode = NXDOMAIN;
    else if (question.type === Packet.TYPE.TXT) {
      for (const data of records.get(name)!) {
        response.answers.push(
          Packet.createResourceFromQuestion(question, { type: Packet.TYPE.TXT, class: Packet.CLASS.IN, ttl: 60, data }),
        );
      }
    }
    send(response);
  });
  await server.listen(0, '127.0.0.1');
  const { port } = server.address() as AddressInfo;
  return {
    address: `127.0.0.1:${port}`,
    setTxt: (name, values) => {
      failing.delete(name);
      records.set(name, values);
    },
    remove: (name) => {
      failing.delete(name);
      records.delete(name);
    },
    fail: (name) => {
      failing.add(name);
    },
    asked,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
