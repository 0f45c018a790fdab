import { Link } from 'react-router';
import { PRODUCT_NAME, SUPPORT_EMAIL } from '../../../shared/site';
import { LegalArticle, LegalSection } from '../../components/marketing/LegalArticle';
import { PublicLayout } from '../../components/marketing/PublicLayout';
import { pageTitle } from '../../seo/meta';
import { PageHead } from '../../seo/PageHead';
import { vaultMessages } from '../../../shared/vault-messages';

const PRIVACY_EFFECTIVE_DATE = 'June 23, 2025';

export function PrivacyPage() {
  return (
    <PublicLayout>
      <PageHead
        title={pageTitle('Privacy Policy')}
        description={`How ${PRODUCT_NAME} collects, uses and protects your phone number and journal. We never share or sell your phone number or SMS opt-in data, and you can opt out of texts at any time by replying STOP.`}
        path="/privacy"
        keywords={['Jotline privacy policy', 'SMS privacy', 'journal privacy', 'text message opt-out']}
      />
      <LegalArticle
        eyebrow="Legal"
        title="Privacy Policy"
        effective={PRIVACY_EFFECTIVE_DATE}
        intro={
          <p>
            {PRODUCT_NAME} lets you keep a journal by text message. Your journal is personal, so we collect as little as we can,
            protect what we keep, and never sell it. This policy explains what we collect, why, and the choices you have.
          </p>
        }
      >
        <LegalSection id="information-we-collect" title="Information we collect">
          <ul>
            <li><strong>Account details:</strong> your email address, your mobile phone number, your time zone and a securely hashed password.</li>
            <li><strong>SMS consent:</strong> a record that you agreed to receive text messages from us, and when.</li>
            <li><strong>Your journal:</strong> the texts, photos and voice notes you send or call in to your journal number and the entries you write on the web.</li>
            <li><strong>Billing status:</strong> your plan and renewal dates. Card details are handled by our payment processor, never by us.</li>
          </ul>
        </LegalSection>

        <LegalSection id="phone-numbers" title="How we use your phone number">
          <p>We use your phone number only to run your journal by text:</p>
          <ul>
            <li>to verify that the number is yours when you sign up;</li>
            <li>to recognise the texts you send to your journal number and save them to your journal;</li>
            <li>to send the daily prompts, reminders and weekly recaps you choose, and replies to HELP, STOP and START;</li>
            <li>to send important account notices, such as the end of your free trial.</li>
          </ul>
          <p>
            Message frequency varies, up to 2 msgs/day. Msg &amp; data rates may apply. Daily prompts are optional and can be turned off
            in your settings at any time.
          </p>
        </LegalSection>

        <LegalSection id="opting-out" title="Opting out of text messages">
          <p>
            Reply <strong>STOP</strong> to your journal number at any time and we will stop sending you text messages. We send one
            message to confirm, then nothing more. Reply <strong>START</strong> to receive messages again, or <strong>HELP</strong> for
            help. Opting out of texts does not cancel your subscription; you can cancel in your settings.
          </p>
        </LegalSection>

        <LegalSection id="sharing" title="We never share or sell your phone number">
          <p>
            <strong>
              Phone numbers and SMS opt-in data are never shared with or sold to third parties or affiliates, for marketing or any other
              purpose.
            </strong>{' '}
            We do not sell any of your data, we do not show ads, and we do not use your journal to profile you.
          </p>
          <p>
            Your messages travel through the telecom carriers and the messaging service that deliver texts, which handle them only to
            deliver them. Our messaging service, Twilio, keeps no copy of what you write: once a text you send is saved to your
            journal, and once a text we send has been delivered or has failed, we have Twilio erase its words and photos; a call's
            recording is erased at Twilio once it is saved. Voice notes are written out as words by a transcription service, on our
            own servers or sent to a provider; a provider hears them for that alone, under its own terms. We disclose
            information when the law requires it, and we will tell you first where the law allows.
          </p>
        </LegalSection>

        <LegalSection id="security" title="How we protect your journal">
          <ul>
            <li>Journal entries are encrypted at rest with AES-256 and in transit with TLS.</li>
            <li>Only you can read your entries. Our team sees account counts and masked phone numbers, never your journal text.</li>
            <li>Photo metadata, such as location, is removed when photos are saved.</li>
          </ul>
        </LegalSection>

        <LegalSection id="sign-in-security" title="Passkeys, two-step verification and your security log">
          <ul>
            <li>
              For a passkey we keep its public key, the name you give it and when it was added and last used. Your fingerprint, face
              or screen lock never leaves your device.
            </li>
            <li>
              For two-step verification we keep the authenticator app's secret, encrypted, and your recovery codes only as hashes:
              we cannot show them to anyone again.
            </li>
            <li>
              For each place you are signed in we keep the device's name (such as "Chrome on macOS"), when it signed in and when it
              was last active, so you can see and end it in <strong>Settings → Sign-in and security</strong>.
            </li>
            <li>
              Your security log shows 90 days of sign-ins, failed sign-ins and account changes (passwords, passkeys, two-step
              verification, the Vault, exports). A sign-in from a new device sends you an e-mail, never a text.
            </li>
          </ul>
        </LegalSection>

        <LegalSection id="vault" title="The Vault: a journal only you can open">
          <p>
            With the Vault on (<strong>Settings → Vault</strong>), your journal is sealed in your browser and on our server to a key
            only your vault passphrase or recovery code opens. {vaultMessages.serverCannotSee} What we still see:
          </p>
          <ul>
            {vaultMessages.serverSees.map((item) => (
              <li key={item}>{item.charAt(0).toUpperCase() + item.slice(1)}.</li>
            ))}
          </ul>
          <p>{vaultMessages.lossWarning}</p>
        </LegalSection>

        <LegalSection id="your-choices" title="Your choices">
          <ul>
            <li>Export your journal as a PDF or plain text at any time from the web app.</li>
            <li>Change your reminder time, time zone, prompts and weekly recap in your settings.</li>
            <li>
              Delete your account and journal yourself at any time in <strong>Settings → Delete my account</strong>. It deletes your
              entries, photos, text messages and profile for good, cancels your subscription and signs you out everywhere; export
              your journal first if you want a copy. If you cannot sign in, write to <a href={`mailto:${SUPPORT_EMAIL}`}>{SUPPORT_EMAIL}</a>{' '}
              and we will delete it for you.
            </li>
          </ul>
        </LegalSection>

        <LegalSection id="changes" title="Changes to this policy">
          <p>
            If we change this policy we will post the new version on this page with a new effective date. If a change affects how we
            use your phone number or journal, we will tell you by email or text before it takes effect.
          </p>
        </LegalSection>

        <LegalSection id="contact" title="Contact us">
          <p>
            Questions about your privacy? Write to <a href={`mailto:${SUPPORT_EMAIL}`}>{SUPPORT_EMAIL}</a> or visit our{' '}
            <Link to="/support">support page</Link>. You can also read our <Link to="/terms">Terms of Service</Link>.
          </p>
          <p>
            <Link to="/">Back to home</Link> · <Link to="/sign-in">Sign in</Link> · <Link to="/sign-up">Create an account</Link>
          </p>
        </LegalSection>
      </LegalArticle>
    </PublicLayout>
  );
}
