import FilterList from '@mui/icons-material/FilterList';
import Search from '@mui/icons-material/Search';
import Badge from '@mui/material/Badge';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Collapse from '@mui/material/Collapse';
import Grid from '@mui/material/Grid';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { type FormEvent, useEffect, useState } from 'react';

/** One input of the bar; its text lives in the draft under `key`. */
export interface FilterField {
  key: string;
  label: string;
  kind: 'text' | 'number' | 'datetime' | 'select';
  /** For `select`: the value and visible label of each choice ('' is "any"). */
  options?: ReadonlyArray<{ value: string; label: string }>;
}

export interface FilterBarLabels {
  apply: string;
  reset: string;
  show: string;
  hide: string;
}

interface FilterBarProps {
  fields: readonly FilterField[];
  /** The inputs' text of the filters in force (the URL's). */
  draft: Record<string, string>;
  /** The draft of "no filter", applied by the reset button. */
  emptyDraft: Record<string, string>;
  /** Filters in use, shown as a badge on the narrow screens' toggle. */
  activeCount: number;
  compact: boolean;
  labels: FilterBarLabels;
  /** `data-testid`s are `${testIdPrefix}-filters`, `${testIdPrefix}-filter-<key>`, … */
  testIdPrefix: string;
  onApply(draft: Record<string, string>): void;
}

/** A list's filters, applied together with the search button (or Enter); folded away on narrow screens. */
export function FilterBar({
  fields,
  draft: applied,
  emptyDraft,
  activeCount,
  compact,
  labels,
  testIdPrefix,
  onApply,
}: FilterBarProps) {
  const [draft, setDraft] = useState(applied);
  const [open, setOpen] = useState(false);
  // The URL is the source of truth: back/forward navigation refills the inputs.
  useEffect(() => setDraft(applied), [applied]);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    onApply(draft);
  };
  const input = (field: FilterField) => (
    <Grid key={field.key} size={{ xs: 12, sm: 6, md: 4, lg: 3 }}>
      <TextField
        size="small"
        fullWidth
        select={field.kind === 'select'}
        type={field.kind === 'datetime' ? 'datetime-local' : field.kind === 'number' ? 'number' : 'text'}
        label={field.label}
        value={draft[field.key] ?? ''}
        onChange={(event) => setDraft((current) => ({ ...current, [field.key]: event.target.value }))}
        slotProps={{
          inputLabel: field.kind === 'datetime' || field.kind === 'select' ? { shrink: true } : {},
          // A select is opened through its visible box, so that box carries the test id.
          select: {
            displayEmpty: true,
            SelectDisplayProps: { 'data-testid': `${testIdPrefix}-filter-${field.key}` } as object,
          },
          htmlInput: {
            'data-testid': `${testIdPrefix}-filter-${field.key}${field.kind === 'select' ? '-value' : ''}`,
            ...(field.kind === 'datetime' ? { step: 1 } : {}),
            ...(field.kind === 'number' ? { min: 1 } : {}),
          },
        }}
      >
        {field.options?.map((option) => (
          <MenuItem key={option.value} value={option.value} data-testid={`${testIdPrefix}-option-${option.value}`}>
            {option.label}
          </MenuItem>
        ))}
      </TextField>
    </Grid>
  );

  return (
    <Box component="form" noValidate onSubmit={submit} sx={{ p: 2 }} data-testid={`${testIdPrefix}-filters`}>
      {compact && (
        <Button
          color="inherit"
          startIcon={
            <Badge badgeContent={activeCount} color="primary">
              <FilterList />
            </Badge>
          }
          onClick={() => setOpen((current) => !current)}
          aria-expanded={open}
          data-testid={`${testIdPrefix}-filter-toggle`}
          sx={{ mb: open ? 2 : 0 }}
        >
          {open ? labels.hide : labels.show}
        </Button>
      )}
      <Collapse in={!compact || open}>
        <Grid container spacing={1.5}>
          {fields.map(input)}
          <Grid size="grow" sx={{ display: 'flex', justifyContent: 'flex-end', alignItems: 'flex-end', gap: 1 }}>
            <Button
              color="inherit"
              onClick={() => {
                setDraft(emptyDraft);
                onApply(emptyDraft);
              }}
              data-testid={`${testIdPrefix}-filter-reset`}
            >
              {labels.reset}
            </Button>
            <Button
              type="submit"
              variant="contained"
              startIcon={<Search />}
              data-testid={`${testIdPrefix}-filter-submit`}
            >
              {labels.apply}
            </Button>
          </Grid>
        </Grid>
      </Collapse>
    </Box>
  );
}
