//! Refund policy in English.

import { ContactChannels } from './Contact';

export function RefundEn() {
  return (
    <>
      <h1>Refund Policy</h1>
      <p className="lead">
        Photos are digital goods: you see a preview before you order and receive them right after payment. Refunds
        are therefore given only in the cases below.
      </p>

      <h2>1. When we refund</h2>
      <ol>
        <li>
          We cannot deliver the goods you ordered because of a system fault: for example, you paid but did not
          receive your photos, or could not download them during the storage period.
        </li>
        <li>A photo you received is unclear or blurred, and you ask for a refund.</li>
      </ol>

      <h2>2. When we do not refund</h2>
      <ul>
        <li>
          You change your mind after paying, or dislike the pose, angle or framing of a photo, which the preview showed
          before you ordered.
        </li>
        <li>You chose the wrong photo, or a photo of someone else, although the preview let you check it.</li>
        <li>
          You did not download the photos within the storage period (about 35 days after the event date), or lost the
          files after downloading them.
        </li>
        <li>
          Problems with your own device, internet connection or in-app browser that the “How to download” page
          explains how to solve.
        </li>
      </ul>

      <h2>3. How to ask for a refund</h2>
      <ol>
        <li>Contact us within 7 days of payment on one of the channels below.</li>
        <li>
          Give us the order link or number, the mobile number you ordered with, and the photos concerned, with a
          description of the problem or a screenshot.
        </li>
        <li>
          We will check and reply within 7 business days. Where possible we first fix the problem by delivering the
          photos again; when we cannot, we refund.
        </li>
      </ol>

      <h2>4. Amount and method</h2>
      <ul>
        <li>
          We refund what you paid for the affected photos, with the same share of the payment processing fee, or the
          full amount when the whole order cannot be delivered.
        </li>
        <li>Paid by PromptPay: transferred back to a bank account or PromptPay in the payer's name.</li>
        <li>Paid by card: returned to the same card; when it shows on your statement depends on the issuing bank.</li>
        <li>Once refunded, your licence to use the refunded photos ends and their download links may be closed.</li>
      </ul>

      <h2>5. Contact us</h2>
      <ContactChannels labels={{ line: 'LINE', facebook: 'Facebook', email: 'E-mail' }} />
    </>
  );
}
