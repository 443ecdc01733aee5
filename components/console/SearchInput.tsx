"use client";
import { TextInput, type TextInputProps } from "@mantine/core";
import { IconSearch } from "@tabler/icons-react";

/** A labelled search field with the magnifier, filtering a list as one types; `onChange` gets the text. */
export function SearchInput({
  onChange,
  ...props
}: Omit<TextInputProps, "type" | "leftSection" | "onChange"> & { label: string; onChange: (value: string) => void }) {
  return (
    <TextInput
      type="search"
      leftSection={<IconSearch size={16} aria-hidden />}
      onChange={(event) => onChange(event.currentTarget.value)}
      {...props}
    />
  );
}
