//! Terms of use and privacy in English.

import { Link } from 'react-router';
import { ContactChannels } from './Contact';

export function TermsEn() {
  return (
    <>
      <h1>Terms of Use and Privacy Policy</h1>
      <p className="lead">
        These terms apply to the Raceshot website (the “platform”), which finds photos by face with AI and sells
        photos of running and other events taken by photographers (the “sellers”) to buyers (“you”). By using the
        platform or placing an order you confirm that you have read and accept these terms.
      </p>

      <h2>1. The service</h2>
      <ul>
        <li>You find your photos of an event by uploading a photo of your face, add photos to a cart, pay, and download the originals.</li>
        <li>
          The AI search is an aid: it may miss some photos or include photos of other people. Please check the
          previews before you order.
        </li>
        <li>
          There are no accounts: anyone with the link to an order page can view and download that order's photos.
          Please keep the link private.
        </li>
      </ul>

      <h2>2. Acceptable use</h2>
      <ul>
        <li>Search only with a photo of your own face, or of a person who has agreed to it.</li>
        <li>Do not use the platform to track, collect or publish photos of other people without their permission.</li>
        <li>
          Do not scrape data or photos with automated tools, try to access the system without permission, or do
          anything that disrupts the service.
        </li>
      </ul>

      <h2>3. Orders and payment</h2>
      <ul>
        <li>
          Photo and package prices are in Thai baht. The total includes a 5% payment processing fee, shown before you
          confirm the order.
        </li>
        <li>
          You pay by PromptPay QR code or by credit/debit card through a payment provider. The platform does not store
          your card details.
        </li>
        <li>
          An order is complete once the payment is confirmed; the platform then prepares the originals and the
          versions with a logo for download.
        </li>
        <li>One order holds photos of one event only.</li>
      </ul>

      <h2>4. Copyright and use of photos</h2>
      <ul>
        <li>
          The copyright in each photo belongs to the photographer who took it. Buying a photo gives you a licence for
          personal use, such as keeping it as a memento, printing it, or sharing it on your personal social media.
        </li>
        <li>
          Do not resell the photos, use them commercially or in advertising, or edit them to remove the photographer's
          watermark or credit, without the photographer's permission.
        </li>
      </ul>

      <h2>5. How long photos are kept</h2>
      <p>
        Photos are kept for about 35 days after the event date. After that they may be deleted and cannot be
        recovered. Please download and back up your purchased photos within that time.
      </p>

      <h2>6. Personal data</h2>
      <p>
        The platform collects, uses and discloses personal data in accordance with Thailand's Personal Data
        Protection Act B.E. 2562 (2019).
      </p>
      <ul>
        <li>
          <strong>What we collect:</strong> your order data (mobile number, e-mail if given, the photos ordered, the
          amount and the payment reference), and the face photo you upload to search.
        </li>
        <li>
          <strong>Why:</strong> to find your photos, process your order and payment, deliver the photos, let you
          find your order later, answer questions and investigate problems, and meet legal obligations.
        </li>
        <li>
          <strong>Your face photo</strong> is used only to search the event you chose. It is not used for any other
          purpose and is never sold or disclosed to third parties. It is deleted as soon as the search is done; one
          uploaded but never searched with is deleted within 75 seconds. Its EXIF data (such as a GPS position) is
          never kept, and neither is the template of your face after the search.
        </li>
        <li>
          <strong>How long:</strong> order data is kept until you ask for it to be changed or cancelled, unless the
          law requires us to keep it longer.
        </li>
        <li>
          <strong>Who sees it:</strong> only as needed, the payment provider, service providers working on our
          behalf, and the photographer who sold the photos, or when the law requires.
        </li>
        <li>
          <strong>Your rights:</strong> you may ask to access, receive a copy of, correct, delete or restrict the use
          of your data, object to its use, or withdraw your consent, by contacting us below. You may also complain to
          Thailand's Personal Data Protection Committee.
        </li>
        <li>
          <strong>Hiding your photos:</strong> if you do not want photos showing your face to be shown for an event,
          send a request with a selfie on{' '}
          <Link to="/hide-my-photos" data-testid="terms-hide-link">
            Hide my photos
          </Link>
          . The selfie must show only you. It is deleted at once; only a template of your face is kept until our team
          decides, and, if the request is approved, to hide photos added later until the event's files are deleted. A
          small picture of your face cut from the selfie, which only our team sees, is kept until the decision (or, if
          none is made, until the event's files are deleted). We tell you the decision by SMS or e-mail.
        </li>
        <li>
          Your browser keeps your cart, chosen language and acceptance of these terms on your own device; you can
          remove them at any time by clearing the site's data.
        </li>
      </ul>

      <h2>7. Disputes between buyers and sellers</h2>
      <p>
        The platform is an intermediary between buyers and the photographers who sell. It is not a party to disputes
        between a buyer and a seller, but it will help investigate the facts and work with both sides towards a
        solution.
      </p>

      <h2>8. Limitation of liability</h2>
      <p>
        We work to keep the service available and correct, but we do not guarantee that it will be uninterrupted or
        error-free. Our liability for any order is limited to the amount you paid for that order. Refunds follow our
        refund policy.
      </p>

      <h2>9. Changes to these terms</h2>
      <p>
        We may update these terms from time to time and will publish the latest version on this page. Using the
        platform after a change means you accept the updated terms. These terms are governed by the laws of Thailand.
      </p>

      <h2>10. Contact us</h2>
      <ContactChannels labels={{ line: 'LINE', facebook: 'Facebook', email: 'E-mail' }} />
    </>
  );
}
