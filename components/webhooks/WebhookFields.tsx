"use client";
import { Checkbox, Code, Fieldset, Radio, Stack, Text, Textarea, TextInput } from "@mantine/core";
import type { ScopeKind } from "@/lib/contracts/scope";
import { ALL_EVENTS, type WebhookEventType } from "@/lib/contracts/webhooks/events";
import { eventGroups } from "./events";

/** What the add and edit dialogs hold: the url, the description and the event types (`["*"]`: every one). */
export type WebhookFieldValues = {
  url: string;
  description: string;
  events: EventChoice[];
};

/** What a webhook can be sent: an event type, or every one. */
export type EventChoice = WebhookEventType | typeof ALL_EVENTS;

export const WEBHOOK_FIELDS = ["url", "description", "events"] as const;

interface Props {
  scope: ScopeKind;
  values: WebhookFieldValues;
  set: <K extends keyof WebhookFieldValues>(key: K, value: WebhookFieldValues[K]) => void;
  fieldError: (field: (typeof WEBHOOK_FIELDS)[number]) => string | undefined;
}

/** The fields of a webhook: where it is sent, what it is for, and which events it is sent. */
export function WebhookFields({ scope, values, set, fieldError }: Props) {
  return (
    <>
      <TextInput
        label="URL"
        description="Where each event is POSTed, signed. It must be reachable from the server on a public address."
        placeholder="https://hooks.example.com/bank-templates"
        required
        type="url"
        data-autofocus
        value={values.url}
        onChange={(event) => set("url", event.currentTarget.value)}
        error={fieldError("url")}
      />
      <Textarea
        label="Description"
        description="What the webhook is for (optional)."
        autosize
        minRows={1}
        maxLength={1000}
        value={values.description}
        onChange={(event) => set("description", event.currentTarget.value)}
        error={fieldError("description")}
      />
      <EventsField scope={scope} events={values.events} onChange={(events) => set("events", events)} error={fieldError("events")} />
    </>
  );
}

/** Every event (types added later too), or the chosen ones, each with its meaning, in their groups. */
function EventsField({
  scope,
  events,
  onChange,
  error,
}: {
  scope: ScopeKind;
  events: EventChoice[];
  onChange: (events: EventChoice[]) => void;
  error: string | undefined;
}) {
  const every = events.includes(ALL_EVENTS);
  const toggle = (type: WebhookEventType, on: boolean) => onChange(on ? [...events, type] : events.filter((e) => e !== type));
  return (
    <Stack gap="xs">
      <Radio.Group
        label="Events"
        description={scope === "personal" ? "Only events about what you may read are sent." : "Events about everything on the server."}
        value={every ? "every" : "chosen"}
        onChange={(value) => onChange(value === "every" ? [ALL_EVENTS] : [])}
        error={error}
      >
        <Stack gap={6} mt={6}>
          <Radio value="every" label="Every event, and types added later" />
          <Radio value="chosen" label="Only the events I choose" />
        </Stack>
      </Radio.Group>
      {!every &&
        eventGroups(scope).map(({ group, events: types }) => (
          <Fieldset key={group} legend={group} variant="filled" p="sm">
            <Stack gap="sm">
              {types.map((event) => (
                <Checkbox
                  key={event.type}
                  label={<Code>{event.type}</Code>}
                  description={
                    <Text span size="xs" c="dimmed" style={{ wordBreak: "break-word" }}>
                      {event.meaning}
                    </Text>
                  }
                  checked={events.includes(event.type)}
                  onChange={(change) => toggle(event.type, change.currentTarget.checked)}
                />
              ))}
            </Stack>
          </Fieldset>
        ))}
    </Stack>
  );
}
