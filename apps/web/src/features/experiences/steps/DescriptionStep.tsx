import '@mantine/tiptap/styles.css';
import { Input, Textarea } from '@mantine/core';
import { Link, RichTextEditor } from '@mantine/tiptap';
import { ZExperienceFields, type TExperience } from '@tourdesk/contracts';
import { useEditor } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import { Controller } from 'react-hook-form';
import { LinesInput } from './LinesInput';
import { StepForm } from './StepForm';
import { useStepForm } from './use-step-form';

const schema = ZExperienceFields.pick({
  long_description: true,
  highlights: true,
  inclusions: true,
  exclusions: true,
  what_to_bring: true,
  important_information: true,
});

function RichText({ value, onChange }: { value: string; onChange: (html: string) => void }) {
  const editor = useEditor({
    extensions: [StarterKit.configure({ link: false }), Link],
    content: value,
    onUpdate: ({ editor: e }) => onChange(e.isEmpty ? '' : e.getHTML()),
    immediatelyRender: true,
    // The editable box is what screen readers announce (a textbox needs a name), not the frame around it.
    editorProps: { attributes: { 'aria-label': 'Long description' } },
  });
  return (
    <RichTextEditor editor={editor}>
      <RichTextEditor.Toolbar>
        <RichTextEditor.ControlsGroup>
          <RichTextEditor.Bold />
          <RichTextEditor.Italic />
          <RichTextEditor.Underline />
          <RichTextEditor.Strikethrough />
        </RichTextEditor.ControlsGroup>
        <RichTextEditor.ControlsGroup>
          <RichTextEditor.H2 />
          <RichTextEditor.H3 />
          <RichTextEditor.BulletList />
          <RichTextEditor.OrderedList />
          <RichTextEditor.Blockquote />
        </RichTextEditor.ControlsGroup>
        <RichTextEditor.ControlsGroup>
          <RichTextEditor.Link />
          <RichTextEditor.Unlink />
        </RichTextEditor.ControlsGroup>
      </RichTextEditor.Toolbar>
      <RichTextEditor.Content mih={180} />
    </RichTextEditor>
  );
}

export function DescriptionStep({ experience }: { experience: TExperience }) {
  const { form, save, saving, hasNext } = useStepForm(experience, 'description', schema, {
    long_description: experience.long_description,
    highlights: experience.highlights,
    inclusions: experience.inclusions,
    exclusions: experience.exclusions,
    what_to_bring: experience.what_to_bring,
    important_information: experience.important_information,
  });
  const lists = [
    ['highlights', 'Highlights'],
    ['inclusions', 'Included'],
    ['exclusions', 'Not included'],
    ['what_to_bring', 'What to bring'],
  ] as const;
  return (
    <StepForm dirty={form.formState.isDirty} saving={saving} onSave={save} hasNext={hasNext}>
      <Controller
        control={form.control}
        name="long_description"
        render={({ field, fieldState }) => (
          <Input.Wrapper label="Long description" description="What the guest will experience. Formatting is kept; scripts and styles are removed." error={fieldState.error?.message}>
            <RichText value={field.value ?? ''} onChange={field.onChange} />
          </Input.Wrapper>
        )}
      />
      {lists.map(([name, label]) => (
        <Controller
          key={name}
          control={form.control}
          name={name}
          render={({ field, fieldState }) => <LinesInput label={label} value={field.value ?? []} onChange={field.onChange} error={fieldState.error?.message} />}
        />
      ))}
      <Textarea label="Important information" autosize minRows={3} {...form.register('important_information')} />
    </StepForm>
  );
}
