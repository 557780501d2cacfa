import { createSocket, type Socket } from 'node:dgram';
import * as packet from 'dns-packet';

/**
 * A DNS server on loopback answering TXT questions from a table the test fills, so that
 * custom hostname proofs can be checked without the internet (`HOSTNAME_DNS_SERVERS`).
 */
export class TestDnsServer {
  readonly txt = new Map<string, string[]>();

  private constructor(
    private socket: Socket,
    readonly port: number,
  ) {}

  static async start(): Promise<TestDnsServer> {
    const socket = createSocket('udp4');
    await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
    const server = new TestDnsServer(socket, socket.address().port);
    socket.on('message', (msg, peer) => socket.send(server.answer(msg), peer.port, peer.address));
    return server;
  }

  /** `host:port`, as the configuration takes it. */
  get address(): string {
    return `127.0.0.1:${this.port}`;
  }

  /** Publishes the record that proves `hostname` belongs to `siteId`. */
  prove(hostname: string, siteId: string) {
    this.txt.set(`_quire.${hostname}`, [`quire-site=${siteId}`]);
  }

  private answer(msg: Buffer): Buffer {
    const query = packet.decode(msg);
    const question = query.questions?.[0];
    const values = question?.type === 'TXT' ? this.txt.get(question.name.toLowerCase()) : undefined;
    return packet.encode({
      id: query.id,
      type: 'response',
      flags: packet.AUTHORITATIVE_ANSWER | (values ? 0 : 3), // rcode 3: no such name
      questions: query.questions,
      answers: (values ?? []).map((data) => ({ type: 'TXT' as const, name: question?.name ?? '', ttl: 0, class: 'IN' as const, data })),
    });
  }

  close() {
    this.socket.close();
  }
}
