import Search from '@mui/icons-material/Search';
import Autocomplete from '@mui/material/Autocomplete';
import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import InputAdornment from '@mui/material/InputAdornment';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { SxProps, Theme } from '@mui/material/styles';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import type { Creator } from '@contracts/creators';
import { useCreatorsQuery } from '@/lib/creators-api';
import { countOf } from '@/lib/format';

/** Typing pauses this long before the suggestions are asked for. */
export const SEARCH_DEBOUNCE_MS = 250;
/** Suggestions shown under the box; the search page has the rest. */
export const SUGGESTION_LIMIT = 8;

interface SeeAll {
  seeAll: string;
}
type Option = Creator | SeeAll;

const isSeeAll = (option: Option | string): option is SeeAll => typeof option === 'object' && 'seeAll' in option;

/** `value`, once it has stopped changing for `ms`. */
export function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

const searchPath = (q: string) => `/search?q=${encodeURIComponent(q)}`;

/**
 * The top bar's 'Search creators...' box: creators by name as you type (after a short pause);
 * choosing one opens their page, Enter or "See all results" opens the search page. `onDone`
 * runs after it navigates, or on Escape with the list closed (the phone bar closes then).
 */
export function CreatorSearch({
  autoFocus = false,
  onDone,
  sx,
}: {
  autoFocus?: boolean;
  onDone?: () => void;
  sx?: SxProps<Theme>;
}) {
  const navigate = useNavigate();
  const [input, setInput] = useState('');
  const [open, setOpen] = useState(false);
  const typed = input.trim();
  const q = useDebounced(typed, SEARCH_DEBOUNCE_MS);
  const { data = [], isFetching } = useCreatorsQuery({ q, limit: SUGGESTION_LIMIT }, { skip: !q });
  const options: Option[] = q ? [...data, { seeAll: q }] : [];

  const go = (path: string) => {
    setInput('');
    setOpen(false);
    onDone?.();
    navigate(path);
  };

  return (
    <Autocomplete<Option, false, false, true>
      freeSolo
      sx={sx}
      size="small"
      open={open && typed.length > 0}
      onOpen={() => setOpen(true)}
      onClose={() => setOpen(false)}
      value={null}
      inputValue={input}
      onInputChange={(_event, value, reason) => reason !== 'reset' && setInput(value)}
      onChange={(_event, option) => {
        if (option === null) return;
        if (typeof option === 'string') {
          if (option.trim()) go(searchPath(option.trim()));
        } else if (isSeeAll(option)) go(searchPath(option.seeAll));
        else go(`/creator/${option.id}`);
      }}
      options={options}
      // The server filters; the list shows what it answered.
      filterOptions={(all) => all}
      getOptionLabel={(option) =>
        typeof option === 'string' ? option : isSeeAll(option) ? `See all results for "${option.seeAll}"` : option.name
      }
      getOptionKey={(option) => (typeof option === 'string' ? option : isSeeAll(option) ? 'see-all' : option.id)}
      loading={isFetching || typed !== q}
      loadingText="Searching..."
      noOptionsText="No creators found"
      clearOnBlur={false}
      handleHomeEndKeys={false}
      renderOption={({ key, ...props }, option) =>
        isSeeAll(option) ? (
          <Box component="li" key={key} {...props} sx={{ minHeight: 44, fontWeight: 600, color: 'primary.main' }}>
            See all results for &quot;{option.seeAll}&quot;
          </Box>
        ) : (
          <Box component="li" key={key} {...props} sx={{ minHeight: 52, gap: 1.5 }}>
            <Avatar src={option.profileImageUrl ?? undefined} alt="" aria-hidden sx={{ width: 36, height: 36 }}>
              {option.name[0]?.toUpperCase()}
            </Avatar>
            <Box sx={{ minWidth: 0 }}>
              <Typography noWrap sx={{ fontWeight: 600 }}>
                {option.name}
              </Typography>
              <Typography variant="body2" color="textSecondary" noWrap>
                {countOf(option.subscriberCount, 'subscriber')} · {countOf(option.postCount, 'post')}
              </Typography>
            </Box>
          </Box>
        )
      }
      renderInput={(params) => (
        <TextField
          {...params}
          placeholder="Search creators..."
          autoFocus={autoFocus}
          onKeyDown={(event) => {
            if (event.key === 'Escape' && !(open && typed)) onDone?.();
          }}
          slotProps={{
            ...params.slotProps,
            htmlInput: { ...params.slotProps.htmlInput, 'aria-label': 'Search creators' },
            input: {
              ...params.slotProps.input,
              startAdornment: (
                <InputAdornment position="start">
                  <Search fontSize="small" />
                </InputAdornment>
              ),
            },
          }}
        />
      )}
    />
  );
}
