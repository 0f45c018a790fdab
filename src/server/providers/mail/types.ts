export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

export interface Mailer {
  readonly name: 'smtp' | 'simulator';
  send(message: MailMessage): Promise<void>;
}
