import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface CapturedMail {
  to: string[];
  subject: string;
  text: string;
  attachments: { filename: string; contentType: string; content: Buffer }[];
  /** Its Message-ID header (the app's is `<job id@BASE_DOMAIN>`), '' when it has none. */
  messageId: string;
}

/** A real SMTP server on a local port (a random one unless given) that keeps every message it receives. */
export async function startMailSink(listenPort = 0) {
  const messages: CapturedMail[] = [];
  const waiters: (() => void)[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      simpleParser(stream)
        .then((mail) => {
          const to = (Array.isArray(mail.to) ? mail.to : mail.to ? [mail.to] : []).flatMap((a) => a.value.map((v) => v.address ?? ''));
          const attachments = mail.attachments.map((a) => ({ filename: a.filename ?? '', contentType: a.contentType, content: a.content }));
          messages.push({ to, subject: mail.subject ?? '', text: mail.text ?? '', attachments, messageId: mail.messageId ?? '' });
          waiters.splice(0).forEach((w) => w());
          callback();
        })
        .catch(callback);
    },
  });
  await new Promise<void>((resolve) => server.listen(listenPort, '127.0.0.1', resolve));
  const port = (server.server.address() as { port: number }).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    /** The newest message to `address` (optionally whose subject matches), waiting up to 5 s for it. */
    async latest(address: string, subject?: RegExp): Promise<CapturedMail> {
      const deadline = Date.now() + 5000;
      for (;;) {
        const found = [...messages].reverse().find((m) => m.to.includes(address) && (!subject || subject.test(m.subject)));
        if (found) return found;
        if (Date.now() > deadline) throw new Error(`no e-mail to ${address}${subject ? ` matching ${subject}` : ''}`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 200);
        });
      }
    },
    countTo: (address: string) => messages.filter((m) => m.to.includes(address)).length,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
export type MailSink = Awaited<ReturnType<typeof startMailSink>>;

/** The first link in a mail, and its uid/token path parts. */
export function linkIn(mail: CapturedMail) {
  const match = mail.text.match(/https?:\/\/\S+/);
  if (!match) throw new Error(`no link in: ${mail.text}`);
  const url = new URL(match[0]);
  const [, , , uid, token] = url.pathname.split('/');
  return { url, uid: uid!, token: token! };
}
