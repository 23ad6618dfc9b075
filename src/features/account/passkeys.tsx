import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { ApiError, errorMessage } from '../../api/client.ts';
import { addPasskey, listPasskeys, removePasskey, renamePasskey } from '../../api/passkeys.ts';
import { type Passkey, passkeyNameMax } from '../../contract/passkeys.ts';
import { toast } from '../../state/toasts.ts';
import { Button } from '../../ui/button.tsx';
import { ConfirmDialog } from '../../ui/confirm-dialog.tsx';
import { Dialog } from '../../ui/dialog.tsx';
import { Field } from '../../ui/field.tsx';
import { Skeleton } from '../../ui/skeleton.tsx';

/** Not in the spec (issue #24): the Security section's passkeys. */
export const passkeyTexts = {
  title: 'Passkeys',
  description:
    'Sign in with your fingerprint, face, screen lock or a security key instead of a password. A passkey counts as both sign-in factors.',
  add: 'Add a passkey',
  none: 'You have no passkeys yet.',
  loading: 'Loading passkeys...',
  added: 'Passkey added',
  addFailed: 'The passkey was not added',
  cancelled: 'The passkey request was cancelled or timed out.',
  renamed: 'Passkey renamed',
  removed: 'Passkey removed',
  unsupported:
    'This browser cannot create passkeys. Try a current version of Chrome, Edge, Safari or Firefox.',
  synced: 'Synced',
  device: 'This device only',
} as const;

const dateText = (iso: string) =>
  new Date(iso).toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: 'numeric' });

function failureText(error: unknown): string {
  const browser = error instanceof Error && (error.name === 'NotAllowedError' || error.name === 'AbortError');
  if (browser) return passkeyTexts.cancelled;
  if (error instanceof ApiError && error.fromServer) return error.message;
  return errorMessage(error);
}

/** The passkeys of the signed-in user: add (with a name), rename, remove. */
export function PasskeysSection() {
  const headingId = useId();
  const [passkeys, setPasskeys] = useState<Passkey[] | null>(null);
  const [loadFailure, setLoadFailure] = useState<string | null>(null);
  const [adding, setAdding] = useState(false);
  const [name, setName] = useState('');
  const [renaming, setRenaming] = useState<Passkey | null>(null);
  const [removing, setRemoving] = useState<Passkey | null>(null);
  const [busy, setBusy] = useState(false);
  const listRef = useRef<HTMLUListElement>(null);
  const supported = typeof window !== 'undefined' && Boolean(window.PublicKeyCredential);

  useEffect(() => {
    let current = true;
    listPasskeys()
      .then((list) => current && setPasskeys(list.passkeys))
      .catch((error: unknown) => current && setLoadFailure(errorMessage(error)));
    return () => {
      current = false;
    };
  }, []);

  const add = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setAdding(true);
    try {
      const passkey = await addPasskey(name.trim() || undefined);
      setPasskeys((list) => [...(list ?? []), passkey]);
      setName('');
      toast({ title: passkeyTexts.added, description: passkey.name });
    } catch (error) {
      toast({ title: passkeyTexts.addFailed, description: failureText(error), variant: 'destructive' });
    } finally {
      setAdding(false);
    }
  };

  const remove = async () => {
    if (!removing) return;
    setBusy(true);
    try {
      const list = await removePasskey(removing.id);
      setPasskeys(list.passkeys);
      toast({ title: passkeyTexts.removed, description: removing.name });
      setRemoving(null);
      // The removed row's button is gone: focus goes to the list's heading.
      listRef.current?.closest('section')?.querySelector<HTMLElement>('h3')?.focus();
    } catch (error) {
      toast({ title: passkeyTexts.removed, description: failureText(error), variant: 'destructive' });
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="account__section" aria-labelledby={headingId}>
      <h3 id={headingId} className="account__section-title" tabIndex={-1}>
        {passkeyTexts.title}
      </h3>
      <p className="muted">{passkeyTexts.description}</p>
      {loadFailure ? (
        <p role="alert" className="alert">
          {loadFailure}
        </p>
      ) : passkeys === null ? (
        <Skeleton label={passkeyTexts.loading} lines={2} />
      ) : passkeys.length === 0 ? (
        <p className="muted">{passkeyTexts.none}</p>
      ) : (
        <ul className="account__list" ref={listRef} aria-label="Your passkeys">
          {passkeys.map((p) => (
            <li key={p.id} className="account__item">
              <div className="account__item-text">
                <strong>{p.name}</strong>
                <span className="muted">
                  {p.synced ? passkeyTexts.synced : passkeyTexts.device} · Added {dateText(p.created_at)}
                  {p.last_used_at ? ` · Last used ${dateText(p.last_used_at)}` : ' · Never used'}
                </span>
              </div>
              <div className="account__item-actions">
                <Button variant="secondary" onClick={() => setRenaming(p)} aria-label={`Rename ${p.name}`}>
                  Rename
                </Button>
                <Button variant="destructive" onClick={() => setRemoving(p)} aria-label={`Remove ${p.name}`}>
                  Remove
                </Button>
              </div>
            </li>
          ))}
        </ul>
      )}
      {supported ? (
        <form className="account__add" onSubmit={(e) => void add(e)} aria-label={passkeyTexts.add}>
          <Field
            label="Passkey name (optional)"
            name="passkey-name"
            value={name}
            maxLength={passkeyNameMax}
            placeholder="e.g. Work laptop"
            autoComplete="off"
            onChange={(e) => setName(e.target.value)}
          />
          <Button type="submit" disabled={adding} part="add-passkey">
            {adding ? 'Waiting for your passkey...' : passkeyTexts.add}
          </Button>
        </form>
      ) : (
        <p className="muted">{passkeyTexts.unsupported}</p>
      )}
      <RenameDialog
        passkey={renaming}
        onClose={() => setRenaming(null)}
        onRenamed={(updated) => {
          setPasskeys((list) => (list ?? []).map((p) => (p.id === updated.id ? updated : p)));
          setRenaming(null);
          toast({ title: passkeyTexts.renamed, description: updated.name });
        }}
      />
      <ConfirmDialog
        open={removing !== null}
        title={`Remove the passkey “${removing?.name ?? ''}”?`}
        description="You will no longer be able to sign in with it. Remove it from the device or passkey manager too."
        confirmLabel="Remove passkey"
        destructive
        busy={busy}
        onConfirm={() => void remove()}
        onCancel={() => setRemoving(null)}
      />
    </section>
  );
}

function RenameDialog({
  passkey,
  onClose,
  onRenamed,
}: {
  passkey: Passkey | null;
  onClose: () => void;
  onRenamed: (passkey: Passkey) => void;
}) {
  const [name, setName] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (passkey) {
      setName(passkey.name);
      setError(undefined);
    }
  }, [passkey]);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!passkey) return;
    if (!name.trim()) {
      setError('Give the passkey a name');
      return;
    }
    setBusy(true);
    try {
      onRenamed(await renamePasskey(passkey.id, name.trim()));
    } catch (failure) {
      setError(failureText(failure));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog open={passkey !== null} onClose={onClose} title="Rename passkey">
      <form className="account__dialog-form" noValidate onSubmit={(e) => void submit(e)}>
        <Field
          label="Name"
          name="name"
          value={name}
          maxLength={passkeyNameMax}
          error={error}
          autoComplete="off"
          onChange={(e) => setName(e.target.value)}
        />
        <div className="confirm-dialog__buttons">
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" disabled={busy}>
            Save name
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
