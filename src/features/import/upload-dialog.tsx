import { type FormEvent, useState } from 'react';
import { errorMessage } from '../../api/client.ts';
import { testImport } from '../../api/donation-list.ts';
import {
  type ImportTestResponse,
  importFileExtensions,
  maxImportRows,
} from '../../contract/donation-import.ts';
import { Button } from '../../ui/button.tsx';
import { Dialog } from '../../ui/dialog.tsx';
import { Field } from '../../ui/field.tsx';

/** What the upload dialog hands the field mapper: the file, the server's reading of it and the options. */
export interface ImportChoice {
  file: File;
  test: ImportTestResponse;
  sendOptInEmail: boolean;
  emailForEmployer: boolean;
}

export interface UploadDialogProps {
  organizationId: number;
  open: boolean;
  onClose: () => void;
  /** The file was read: the field mapper takes over. */
  onTested: (choice: ImportChoice) => void;
}

const accept = importFileExtensions.join(',');

/**
 * spec: "Upload dialog, followed by a Field Mapper dialog after a file is chosen." Continue sends
 * the file and the two options to the Test call (nothing is written); a file the server cannot
 * read keeps the dialog open with the server's reason under the file field.
 */
export function UploadDialog({ organizationId, open, onClose, onTested }: UploadDialogProps) {
  return (
    <Dialog
      open={open}
      onClose={onClose}
      title="Upload Donations"
      description={`A .csv, .xlsx or .xls file of up to ${maxImportRows} rows; the first row must be the column names.`}
    >
      <UploadForm organizationId={organizationId} onCancel={onClose} onTested={onTested} />
    </Dialog>
  );
}

function UploadForm({
  organizationId,
  onCancel,
  onTested,
}: {
  organizationId: number;
  onCancel: () => void;
  onTested: (choice: ImportChoice) => void;
}) {
  const [file, setFile] = useState<File | null>(null);
  const [sendOptInEmail, setSendOptInEmail] = useState(false);
  const [emailForEmployer, setEmailForEmployer] = useState(false);
  const [error, setError] = useState<string | undefined>();
  const [reading, setReading] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!file) {
      setError('Choose a file to upload.');
      return;
    }
    setReading(true);
    setError(undefined);
    try {
      const test = await testImport(organizationId, { file, sendOptInEmail, emailForEmployer });
      onTested({ file, test, sendOptInEmail, emailForEmployer });
    } catch (failure) {
      setError(errorMessage(failure));
    } finally {
      setReading(false);
    }
  }

  return (
    <form className="upload" onSubmit={submit} noValidate>
      <Field
        label="Donations file"
        type="file"
        accept={accept}
        required
        error={error}
        announce
        hint="Accepted types: .csv, .xlsx, .xls"
        onChange={(event) => {
          setFile(event.currentTarget.files?.[0] ?? null);
          setError(undefined);
        }}
      />
      <label className="upload__option">
        <input
          type="checkbox"
          name="sendOptInEmail"
          checked={sendOptInEmail}
          onChange={(event) => setSendOptInEmail(event.currentTarget.checked)}
        />
        <span>Send an opt-in email first: donors confirm before they are asked to act</span>
      </label>
      <label className="upload__option">
        <input
          type="checkbox"
          name="emailForEmployer"
          checked={emailForEmployer}
          onChange={(event) => setEmailForEmployer(event.currentTarget.checked)}
        />
        <span>
          Email donors without a company to ask for their employer (otherwise those rows are skipped)
        </span>
      </label>
      <div className="upload__actions">
        <Button variant="secondary" onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" disabled={reading} aria-busy={reading || undefined}>
          {reading ? 'Reading file...' : 'Continue'}
        </Button>
      </div>
    </form>
  );
}
