import Download from '@mui/icons-material/Download';
import FilterAltOff from '@mui/icons-material/FilterAltOff';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { DataGrid, type GridPaginationModel, type GridSortModel } from '@mui/x-data-grid';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import { ADMIN_SORT_FIELDS, ADMIN_STATUSES, PAGE_SIZES, type AdminResource } from '@contracts/admin';
import { serverErrorText } from '@/lib/api';
import { ADMIN_COLUMNS } from './admin-columns';
import { useAdminTableQuery } from './admin-api';
import { RecordDrawer } from './record-drawer';

/** Filters kept in the URL; paging and sorting too, so a link reopens the same view. */
const FILTER_KEYS = ['status', 'from', 'to', 'userId', 'minAmount', 'maxAmount', 'account', 'id'] as const;
type FilterKey = (typeof FILTER_KEYS)[number];
const LABELS: Record<FilterKey, string> = {
  status: 'Status',
  from: 'From',
  to: 'To',
  userId: 'User ID',
  minAmount: 'Min amount',
  maxAmount: 'Max amount',
  account: 'Account',
  id: 'Record ID',
};

function filtersOf(params: URLSearchParams): URLSearchParams {
  const only = new URLSearchParams();
  for (const key of FILTER_KEYS) {
    const value = params.get(key);
    if (value) only.set(key, value);
  }
  return only;
}

export function AdminTable({ resource }: { resource: AdminResource }) {
  const [params, setParams] = useSearchParams();
  const [draft, setDraft] = useState<Record<FilterKey, string>>(
    () => Object.fromEntries(FILTER_KEYS.map((k) => [k, params.get(k) ?? ''])) as Record<FilterKey, string>,
  );
  const [selected, setSelected] = useState<Record<string, unknown> | null>(null);
  const search = params.toString();
  // The URL is the source of truth. Our own changes set the form first; any other navigation
  // (back/forward, a pasted link) resets the form to the URL.
  const ownSearch = useRef(search);
  useEffect(() => {
    if (search === ownSearch.current) return;
    ownSearch.current = search;
    const current = new URLSearchParams(search);
    setDraft(Object.fromEntries(FILTER_KEYS.map((k) => [k, current.get(k) ?? ''])) as Record<FilterKey, string>);
  }, [search]);

  const { data, isFetching, error } = useAdminTableQuery({ resource, search });
  const page = Number(params.get('page') ?? 0) || 0;
  const pageSize = Number(params.get('pageSize') ?? 25) || 25;
  const sortField = params.get('sortField');
  const sortModel: GridSortModel = sortField
    ? [{ field: sortField, sort: params.get('sortOrder') === 'asc' ? 'asc' : 'desc' }]
    : [];

  const update = (changes: Record<string, string | null>) => {
    const next = new URLSearchParams(params);
    for (const [key, value] of Object.entries(changes)) {
      if (value === null || value === '') next.delete(key);
      else next.set(key, value);
    }
    ownSearch.current = next.toString();
    setParams(next);
  };
  const apply = (event?: FormEvent) => {
    event?.preventDefault();
    update({ ...draft, page: null });
  };
  const clear = () => {
    setDraft(Object.fromEntries(FILTER_KEYS.map((k) => [k, ''])) as Record<FilterKey, string>);
    update(Object.fromEntries([...FILTER_KEYS.map((k) => [k, null]), ['page', null]]));
  };
  const sortable = ADMIN_SORT_FIELDS[resource] as readonly string[];
  const columns = ADMIN_COLUMNS[resource].map((column) => ({
    ...column,
    sortable: sortable.includes(column.field) && column.sortable !== false,
    filterable: false,
  }));
  const exportHref = `/api/admin/${resource}/export.csv?${filtersOf(params).toString()}`;

  const field = (key: FilterKey, props: Record<string, unknown> = {}) => (
    <TextField
      key={key}
      size="small"
      label={LABELS[key]}
      value={draft[key]}
      onChange={(event) => setDraft({ ...draft, [key]: event.target.value })}
      name={key}
      {...props}
    />
  );

  return (
    <Stack spacing={2}>
      <Box component="form" onSubmit={apply} aria-label="Filters">
        <Stack direction="row" spacing={1.5} useFlexGap sx={{ flexWrap: 'wrap', alignItems: 'center' }}>
          <TextField
            select
            size="small"
            label={resource === 'ledger' ? 'Kind' : 'Status'}
            value={draft.status}
            onChange={(event) => {
              setDraft({ ...draft, status: event.target.value });
              update({ status: event.target.value, page: null });
            }}
            sx={{ minWidth: 150 }}
            slotProps={{ htmlInput: { 'data-testid': 'status-filter' } }}
          >
            <MenuItem value="">Any</MenuItem>
            {ADMIN_STATUSES[resource].map((value) => (
              <MenuItem key={value} value={value}>
                {value}
              </MenuItem>
            ))}
          </TextField>
          {field('from', { type: 'date', slotProps: { inputLabel: { shrink: true } } })}
          {field('to', { type: 'date', slotProps: { inputLabel: { shrink: true } } })}
          {field('userId', { sx: { minWidth: { xs: 0, sm: 280 }, flex: { xs: '1 1 100%', sm: 'none' } } })}
          {field('minAmount', { sx: { width: 120 } })}
          {field('maxAmount', { sx: { width: 120 } })}
          {resource === 'ledger' && field('account', { sx: { width: 220 } })}
          <Button type="submit" variant="contained">
            Apply Filters
          </Button>
          <Button startIcon={<FilterAltOff />} onClick={clear}>
            Clear
          </Button>
          <Box sx={{ flex: 1 }} />
          <Button component="a" href={exportHref} download startIcon={<Download />} variant="outlined">
            Export CSV
          </Button>
        </Stack>
      </Box>
      {error && <Alert severity="error">{serverErrorText(error) ?? 'Could not load the table.'}</Alert>}
      {/* The grid scrolls sideways inside itself on narrow screens; the page never does. */}
      <Card sx={{ minWidth: 0, maxWidth: '100%', overflowX: 'auto' }} data-testid="admin-table">
        <DataGrid
          aria-label={`${resource} table`}
          rows={data?.rows ?? []}
          columns={columns}
          getRowId={(row) => String(row.id)}
          rowCount={data?.total ?? 0}
          loading={isFetching}
          paginationMode="server"
          sortingMode="server"
          filterMode="server"
          disableColumnFilter
          disableRowSelectionOnClick
          pageSizeOptions={[...PAGE_SIZES]}
          paginationModel={{ page, pageSize }}
          onPaginationModelChange={(model: GridPaginationModel) =>
            update({ page: model.page ? String(model.page) : null, pageSize: String(model.pageSize) })
          }
          sortModel={sortModel}
          onSortModelChange={(model: GridSortModel) =>
            update({ sortField: model[0]?.field ?? null, sortOrder: model[0]?.sort ?? null, page: null })
          }
          onRowClick={({ row }) => setSelected(row)}
          sx={{ border: 0, minHeight: 420, '& .MuiDataGrid-row': { cursor: 'pointer' } }}
        />
      </Card>
      <RecordDrawer resource={resource} record={selected} onClose={() => setSelected(null)} onChanged={setSelected} />
    </Stack>
  );
}
