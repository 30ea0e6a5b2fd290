//! A finisher certificate's files: a preview of the picture (1080 × 1350, for social media)
//! and the downloads of the picture and of the A4 PDF. A result's free certificate and an
//! order's bought one show them alike; each feature names them in its own words and test
//! ids (`{testId}-preview`, `-image`, `-print`).

type Props = {
  imageUrl: string;
  printUrl: string;
  labels: { preview: string; image: string; print: string };
  testId: string;
};

export function CertificateFiles({ imageUrl, printUrl, labels, testId }: Props) {
  return (
    <>
      <img
        className="certificate-preview"
        src={imageUrl}
        alt={labels.preview}
        width={270}
        height={338}
        loading="lazy"
        data-testid={`${testId}-preview`}
      />
      <div className="certificate-actions">
        <a className="btn btn-primary" href={imageUrl} download data-testid={`${testId}-image`}>
          {labels.image}
        </a>
        <a className="btn btn-secondary" href={printUrl} download data-testid={`${testId}-print`}>
          {labels.print}
        </a>
      </div>
    </>
  );
}
