/**
 * Schedule a campaign from the list: start and end in the browser's time zone; the server's error
 * shown at the field its `path` names. Scheduling does not enable the campaign.
 */
import { Banner, FormLayout, Modal, Text, TextField } from '@shopify/polaris';
import { useState } from 'react';
import { api, errorText } from '../api/client.ts';
import type { CampaignListItem } from '../api/client.ts';
import { fromLocalInput, toLocalInput } from '../local-time.ts';

export function ScheduleModal({ campaign, onDone, onClose }: { campaign: CampaignListItem; onDone: (text: string) => void; onClose: () => void }) {
  const [startAt, setStartAt] = useState(toLocalInput(campaign.startAt));
  const [endAt, setEndAt] = useState(toLocalInput(campaign.endAt));
  const [errors, setErrors] = useState<{ startAt?: string; endAt?: string; other?: string }>({});
  const [saving, setSaving] = useState(false);

  const save = async () => {
    setSaving(true);
    const { data, error } = await api.POST('/app/api/v1/campaigns/{id}/schedule', {
      params: { path: { id: campaign.id } },
      body: { startAt: fromLocalInput(startAt), endAt: fromLocalInput(endAt) },
    });
    setSaving(false);
    if (data) {
      onDone(`${campaign.name} is scheduled`);
      return;
    }
    const field = error && 'path' in error && Array.isArray(error.path) ? error.path[0] : undefined;
    const text = (error && 'issue' in error && typeof error.issue === 'string' ? error.issue : undefined) ?? errorText(error, 'The schedule could not be saved');
    setErrors(field === 'startAt' || field === 'endAt' ? { [field]: text } : { other: text });
  };

  return (
    <Modal
      open
      onClose={onClose}
      title={`Schedule ${campaign.name}`}
      primaryAction={{ content: 'Save schedule', loading: saving, onAction: () => void save() }}
      secondaryActions={[{ content: 'Cancel', onAction: onClose }]}
    >
      <Modal.Section>
        <FormLayout>
          <Text as="p" tone="subdued">
            Times are in your browser's time zone. Leave a field empty for no start or no end. Scheduling does not enable the campaign.
          </Text>
          {errors.other && (
            <Banner tone="critical">
              <p>{errors.other}</p>
            </Banner>
          )}
          <TextField label="Starts" type="datetime-local" value={startAt} onChange={setStartAt} autoComplete="off" error={errors.startAt} clearButton onClearButtonClick={() => setStartAt('')} />
          <TextField label="Ends" type="datetime-local" value={endAt} onChange={setEndAt} autoComplete="off" error={errors.endAt} clearButton onClearButtonClick={() => setEndAt('')} />
        </FormLayout>
      </Modal.Section>
    </Modal>
  );
}
