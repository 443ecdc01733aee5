"use client";
import { type ComponentType, type Ref, useEffect, useImperativeHandle, useRef, useState } from "react";

/** A problem to show in the text: an underline over `from`–`to`, a gutter marker, its message on hover. */
export interface JsonDiagnostic {
  from: number;
  to: number;
  severity: "error" | "warning";
  message: string;
  /** Shown before the message, e.g. the path the API named. */
  source?: string;
}

/** What a caller can do with the editor: select a span (and bring it into view), or focus it. */
export interface JsonEditorHandle {
  select(from: number, to: number): void;
  focus(): void;
}

export interface JsonEditorProps {
  value: string;
  onChange: (text: string) => void;
  /** The accessible name of the text area (aria-label). */
  label: string;
  /** Id of what describes the text: the validation status. */
  describedBy?: string;
  invalid?: boolean;
  diagnostics?: readonly JsonDiagnostic[];
  placeholder?: string;
  fontSize?: "xs" | "sm";
  /** CSS lengths: the editor grows with its text from `minHeight` and scrolls past `maxHeight`. */
  minHeight?: string;
  maxHeight?: string;
  /** On the editable element (the text area, then CodeMirror's content). */
  testId?: string;
  handleRef?: Ref<JsonEditorHandle>;
}

/**
 * What the CodeMirror view receives: the same props, with the sizes' defaults filled in, and
 * whether to take the focus (the text area had it when CodeMirror replaced it).
 */
export type JsonEditorViewProps = JsonEditorProps &
  Required<Pick<JsonEditorProps, "fontSize" | "minHeight" | "maxHeight">> & { autoFocus: boolean };

type View = ComponentType<JsonEditorViewProps>;

// CodeMirror is ~150 kB of JavaScript that only the manifest and policy editors use: it is
// fetched with import() when an editor first mounts, and kept for the next one.
let loaded: View | null = null;
let loading: Promise<View> | null = null;
const loadView = () => {
  loading ??= import("./CodeMirrorJson").then((m) => {
    loaded = m.CodeMirrorJson;
    return loaded;
  });
  return loading;
};

/**
 * A JSON editor. Until CodeMirror has loaded (and on the server) it is a plain monospace
 * text area holding the same value, editable, so the page works at once; then CodeMirror
 * takes its place, keeping the focus if the text area had it.
 */
export function JsonEditor(props: JsonEditorProps) {
  const { fontSize = "sm", minHeight = "12em", maxHeight = "40em" } = props;
  // The first render is the text area, as on the server, so hydration matches; the effect
  // below swaps in CodeMirror at once when its code is already here.
  const [View, setView] = useState<View | null>(null);
  const [focusOnLoad, setFocusOnLoad] = useState(false);
  const textarea = useRef<HTMLTextAreaElement>(null);

  useEffect(() => {
    if (View) return;
    if (loaded) {
      setView(() => loaded);
      return;
    }
    let live = true;
    loadView().then(
      (component) => {
        if (!live) return;
        setFocusOnLoad(document.activeElement !== null && document.activeElement === textarea.current);
        setView(() => component);
      },
      () => {
        // Could not fetch the chunk (offline, a new deployment): the text area stays, and
        // the next editor to mount tries again.
        loading = null;
      },
    );
    return () => {
      live = false;
    };
  }, [View]);

  // One handle for the caller, passing on to CodeMirror's once it is there, else to the text area.
  const view = useRef<JsonEditorHandle>(null);
  useImperativeHandle(
    props.handleRef,
    () => ({
      select(from: number, to: number) {
        if (view.current) return view.current.select(from, to);
        const element = textarea.current;
        if (!element) return;
        element.focus();
        element.setSelectionRange(from, to);
      },
      focus() {
        if (view.current) view.current.focus();
        else textarea.current?.focus();
      },
    }),
    [],
  );

  return (
    <>
      {View && <View {...props} fontSize={fontSize} minHeight={minHeight} maxHeight={maxHeight} handleRef={view} autoFocus={focusOnLoad} />}
      {/* Once CodeMirror is there, the text area stays, hidden, holding the whole text: CodeMirror
          draws only the lines in view, so this is where the value can always be read (tests do). */}
      <textarea
        ref={textarea}
        hidden={View !== null}
        readOnly={View !== null}
        value={props.value}
        onChange={(e) => props.onChange(e.currentTarget.value)}
        aria-label={props.label}
        aria-describedby={props.describedBy}
        aria-invalid={props.invalid}
        placeholder={props.placeholder}
        spellCheck={false}
        autoComplete="off"
        autoCapitalize="off"
        data-testid={props.testId ? `${props.testId}-value` : undefined}
        style={{
          // Inline, so `hidden` needs saying here too.
          display: View ? "none" : "block",
          width: "100%",
          boxSizing: "border-box",
          minHeight,
          height: minHeight,
          maxHeight,
          resize: "vertical",
          padding: "4px 8px",
          fontFamily: "var(--mantine-font-family-monospace)",
          fontSize: `var(--mantine-font-size-${fontSize})`,
          lineHeight: 1.5,
          color: "var(--mantine-color-text)",
          backgroundColor: "var(--mantine-color-body)",
          border: `1px solid var(${props.invalid ? "--mantine-color-error" : "--mantine-color-default-border"})`,
          borderRadius: "var(--mantine-radius-default)",
        }}
      />
    </>
  );
}
