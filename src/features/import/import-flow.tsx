import { useState } from 'react';
import { FieldMapper } from './field-mapper.tsx';
import { type ImportChoice, UploadDialog } from './upload-dialog.tsx';

export interface ImportFlowProps {
  organizationId: number;
  open: boolean;
  onClose: () => void;
  /** Rows were created: reload what shows them. */
  onUploaded: () => void;
}

/**
 * spec: "Upload dialog, followed by a Field Mapper dialog after a file is chosen." One flow, two
 * dialogs: the file and its first reading pass from the first to the second.
 */
export function ImportFlow({ organizationId, open, onClose, onUploaded }: ImportFlowProps) {
  const [choice, setChoice] = useState<ImportChoice | null>(null);
  return (
    <>
      <UploadDialog
        organizationId={organizationId}
        open={open && choice === null}
        onClose={onClose}
        onTested={setChoice}
      />
      <FieldMapper
        organizationId={organizationId}
        choice={open ? choice : null}
        onClose={() => {
          setChoice(null);
          onClose();
        }}
        onUploaded={() => {
          setChoice(null);
          onClose();
          onUploaded();
        }}
      />
    </>
  );
}
