"use client";
import { Textarea, type TextareaProps, TextInput, type TextInputProps } from "@mantine/core";
import { SOURCE_URL_HELP } from "./source-url-help";

/** The URL field of the add and edit dialogs, focused when the dialog opens. */
export function SourceUrlInput(props: TextInputProps) {
  return <TextInput label="URL" description={SOURCE_URL_HELP} required type="url" data-autofocus {...props} />;
}

/** The description field of the add and edit dialogs (at most 1,000 characters, CONTRACT §15). */
export function SourceDescriptionInput(props: TextareaProps) {
  return <Textarea label="Description" autosize minRows={2} maxLength={1000} {...props} />;
}
