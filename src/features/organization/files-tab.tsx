import { format } from 'date-fns';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { ApiError, errorMessage } from '../../api/client.ts';
import { deleteDocument, documentFile, uploadFile } from '../../api/organization-changes.ts';
import {
  can,
  type EffectiveLevel,
  logoTypeMessage,
  logoTypes,
  maxDocuments,
  type Organization,
} from '../../contract/index.ts';
import { patchCurrentOrganization, replaceCurrentOrganization } from '../../state/organization.ts';
import { toast } from '../../state/toasts.ts';
import { Button } from '../../ui/button.tsx';
import { ConfirmDialog } from '../../ui/confirm-dialog.tsx';
import { Field } from '../../ui/field.tsx';
import { logoUrl } from '../shell/sidebar.tsx';
import { Section, TextField } from './fields.tsx';

/** spec (part 1, section 8), word for word. */
export const filesTexts = {
  logoUploaded: 'Logo uploaded successfully',
  logoFailed: 'Failed to upload logo',
  documentUploaded: 'Document uploaded successfully',
  documentFailed: 'Failed to upload document',
  tooMany: `An organization can have at most ${maxDocuments} documents.`,
} as const;

/** spec (section 5): "Logo upload accepts only PNG or JPG (image/png, image/jpeg, image/jpg)." */
export function isLogoType(type: string): boolean {
  return (logoTypes as readonly string[]).includes(type);
}

const documentTypes = ['application/pdf', 'image/png', 'image/jpeg', 'image/jpg'];

function reason(error: unknown): string {
  return error instanceof ApiError && !error.fromServer ? error.message : errorMessage(error);
}

export function FilesTab({ organization, level }: { organization: Organization; level: EffectiveLevel }) {
  const write = can(level, 'organization.update');
  return (
    <div className="details__stack">
      <LogoSection organization={organization} write={write} />
      <DocumentsSection organization={organization} write={write} />
    </div>
  );
}

function LogoSection({ organization, write }: { organization: Organization; write: boolean }) {
  const input = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [uploading, setUploading] = useState(false);

  const choose = (chosen: File | undefined) => {
    setError(null);
    if (!chosen) return setFile(null);
    if (!isLogoType(chosen.type)) {
      setFile(null);
      setError(logoTypeMessage);
      if (input.current) input.current.value = '';
      return;
    }
    setFile(chosen);
  };

  const upload = async (event: FormEvent) => {
    event.preventDefault();
    if (!file) return;
    setUploading(true);
    try {
      const answer = await uploadFile(organization.id, { kind: 'logo', file });
      patchCurrentOrganization(organization.id, answer);
      setFile(null);
      if (input.current) input.current.value = '';
      toast({ description: filesTexts.logoUploaded });
    } catch (failure) {
      setError(reason(failure));
      toast({ description: filesTexts.logoFailed, variant: 'destructive' });
    } finally {
      setUploading(false);
    }
  };

  return (
    <Section
      title="Logo"
      description="Shown in the portal and on your matching page. PNG or JPG, at most 2 MB."
    >
      <div className="details__logo">
        {organization.file_logo ? (
          <img
            className="details__logo-image"
            src={logoUrl(organization.file_logo, '/files/')}
            alt={`${organization.name} logo`}
          />
        ) : (
          <p className="muted">No logo yet.</p>
        )}
      </div>
      {write ? (
        <form className="details__inline-form" onSubmit={upload} aria-label="Upload logo">
          <Field
            ref={input}
            label="Logo file"
            type="file"
            name="logo"
            accept="image/png,image/jpeg"
            error={error ?? undefined}
            announce
            onChange={(e) => choose(e.target.files?.[0])}
          />
          <div className="details__row-actions">
            <Button type="submit" disabled={!file || uploading}>
              {uploading ? 'Uploading...' : 'Upload Logo'}
            </Button>
          </div>
        </form>
      ) : null}
    </Section>
  );
}

function DocumentLink({ path, name }: { path: string; name: string }) {
  // Documents are served only to callers who can read the organization: the authenticated URL
  // needs the bearer token, so it is fetched and opened as a local object URL.
  if (!path.startsWith('/api/')) {
    return (
      <a href={path} target="_blank" rel="noopener">
        {name}
        <span className="visually-hidden"> (opens in a new tab)</span>
      </a>
    );
  }
  const open = async () => {
    try {
      const blob = await documentFile(path);
      const url = URL.createObjectURL(blob);
      window.open(url, '_blank', 'noopener');
      setTimeout(() => URL.revokeObjectURL(url), 60_000);
    } catch (error) {
      toast({ title: 'Error', description: errorMessage(error), variant: 'destructive' });
    }
  };
  return (
    <Button variant="link" onClick={() => void open()}>
      {name}
    </Button>
  );
}

function DocumentsSection({ organization, write }: { organization: Organization; write: boolean }) {
  const input = useRef<HTMLInputElement>(null);
  const [name, setName] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [uploading, setUploading] = useState(false);
  const [deleting, setDeleting] = useState<{ id: number; name: string } | null>(null);
  const [busy, setBusy] = useState(false);
  // The deleted entry took the focus with it: the dialog hands it to the list instead.
  const listArea = useRef<HTMLDivElement>(null);
  const deleted = useRef(false);
  const documents = organization.documents;
  const full = documents.length >= maxDocuments;

  const choose = (chosen: File | undefined) => {
    setError(null);
    if (chosen && !documentTypes.includes(chosen.type)) {
      setFile(null);
      setError('Please select a PDF, PNG or JPG file');
      if (input.current) input.current.value = '';
      return;
    }
    setFile(chosen ?? null);
  };

  const upload = async (event: FormEvent) => {
    event.preventDefault();
    if (!file || !name.trim()) return;
    setUploading(true);
    try {
      const answer = await uploadFile(organization.id, { kind: 'document', file, name: name.trim() });
      patchCurrentOrganization(organization.id, answer);
      setName('');
      setFile(null);
      if (input.current) input.current.value = '';
      toast({ description: filesTexts.documentUploaded });
    } catch (failure) {
      setError(reason(failure));
      toast({ description: filesTexts.documentFailed, variant: 'destructive' });
    } finally {
      setUploading(false);
    }
  };

  // After a deletion the dialog closes and its Delete button is gone: focus goes to the list.
  // (An effect of this component runs after the dialog's own, which closes it.)
  useEffect(() => {
    if (deleting !== null || !deleted.current) return;
    deleted.current = false;
    listArea.current?.focus();
  }, [deleting]);

  const remove = async () => {
    if (!deleting) return;
    setBusy(true);
    try {
      replaceCurrentOrganization(await deleteDocument(organization.id, deleting.id));
      deleted.current = true;
      setError(null);
    } catch (failure) {
      setError(reason(failure));
      toast({ title: 'Error', description: errorMessage(failure), variant: 'destructive' });
    } finally {
      setBusy(false);
      setDeleting(null);
    }
  };

  return (
    <Section
      title="Documents"
      description={`Up to ${maxDocuments} documents (PDF, PNG or JPG, at most 10 MB each), such as your IRS determination letter.`}
    >
      <div ref={listArea} tabIndex={-1} className="details__focus-target">
        {documents.length ? (
          <ul className="details__list">
            {documents.map((d) => (
              <li key={d.id} className="details__list-item">
                <span>
                  <DocumentLink path={d.file} name={d.name} />
                  <span className="muted details__date">
                    {' '}
                    uploaded {d.uploaded_date ? format(new Date(d.uploaded_date), 'MMM d, yyyy') : ''}
                  </span>
                </span>
                {write ? (
                  <Button variant="ghost" onClick={() => setDeleting(d)} aria-label={`Delete ${d.name}`}>
                    Delete
                  </Button>
                ) : null}
              </li>
            ))}
          </ul>
        ) : (
          <p className="muted">No documents yet.</p>
        )}
      </div>
      {write && full ? <p className="muted">{filesTexts.tooMany}</p> : null}
      {write && !full ? (
        <form className="details__inline-form" onSubmit={upload} aria-label="Upload document">
          <TextField
            label="Document name"
            name="document_name"
            value={name}
            onChange={setName}
            maxLength={100}
          />
          <Field
            ref={input}
            label="Document file"
            type="file"
            name="document"
            accept="application/pdf,image/png,image/jpeg"
            error={error ?? undefined}
            announce
            onChange={(e) => choose(e.target.files?.[0])}
          />
          <div className="details__row-actions">
            {/* spec (section 5): "Each needs both a name and a file before the upload button is enabled." */}
            <Button type="submit" disabled={!file || !name.trim() || uploading}>
              {uploading ? 'Uploading...' : 'Upload Document'}
            </Button>
          </div>
        </form>
      ) : null}
      <ConfirmDialog
        open={deleting !== null}
        title="Delete document"
        description={deleting ? `Delete "${deleting.name}"? The file is removed for good.` : undefined}
        confirmLabel="Delete document"
        destructive
        busy={busy}
        onConfirm={() => void remove()}
        onCancel={() => setDeleting(null)}
      />
    </Section>
  );
}
