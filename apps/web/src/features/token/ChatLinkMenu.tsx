import ChatOutlined from '@mui/icons-material/ChatOutlined';
import OpenInNew from '@mui/icons-material/OpenInNew';
import IconButton from '@mui/material/IconButton';
import ListItemText from '@mui/material/ListItemText';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Tooltip from '@mui/material/Tooltip';
import { clientKey, removeTrailingSlash } from '@one-hub/contracts';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSiteInfo } from '../../hooks/useSiteInfo.js';
import { fillChatLink, parseChatLinks } from '../../lib/chatLinks.js';

interface ChatEntry {
  name: string;
  url: string;
}

/** The shown `chat_links` by descending sort, after the site's single `chat_link` when it has one. */
function useChatEntries(siteChatName: string): ChatEntry[] {
  const { chat_links: chatLinks, chat_link: chatLink } = useSiteInfo();
  return useMemo(() => {
    const entries: ChatEntry[] = parseChatLinks(chatLinks).filter((link) => link.show);
    if (chatLink && !entries.some((entry) => entry.url === chatLink))
      entries.unshift({ name: siteChatName, url: chatLink });
    return entries;
  }, [chatLinks, chatLink, siteChatName]);
}

/** Opens a chat client with this key filled in (spec §3), each in a new tab. */
export function ChatLinkMenu({
  tokenId,
  tokenKey,
  disabled,
}: {
  tokenId: number;
  tokenKey: string;
  disabled?: boolean;
}) {
  const { t } = useTranslation('token');
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const entries = useChatEntries(t('chat.siteChat'));
  const { server_address: serverAddress } = useSiteInfo();
  const open = anchor !== null;
  const server = removeTrailingSlash(serverAddress || window.location.origin);

  if (entries.length === 0) return null;
  return (
    <>
      <Tooltip title={t('actions.chat')}>
        <span>
          <IconButton
            size="small"
            aria-label={t('actions.chat')}
            aria-haspopup="menu"
            data-testid={`token-chat-${tokenId}`}
            disabled={disabled}
            onClick={(event) => setAnchor(event.currentTarget)}
          >
            <ChatOutlined fontSize="small" />
          </IconButton>
        </span>
      </Tooltip>
      <Menu
        anchorEl={anchor}
        open={open}
        onClose={() => setAnchor(null)}
        slotProps={{ list: { dense: true, 'aria-label': t('chat.menuLabel') } }}
        data-testid={`token-chat-menu-${tokenId}`}
      >
        {entries.map((entry, index) => {
          const href = tokenKey ? fillChatLink(entry.url, { key: clientKey(tokenKey), server }) : undefined;
          return (
            <MenuItem
              key={`${entry.name} ${entry.url}`}
              component="a"
              href={href}
              target="_blank"
              rel="noopener noreferrer"
              disabled={!href}
              onClick={() => setAnchor(null)}
              data-testid={`token-chat-link-${index}`}
            >
              <ListItemText primary={entry.name} />
              <OpenInNew fontSize="inherit" sx={{ ml: 2, color: 'text.secondary' }} />
            </MenuItem>
          );
        })}
      </Menu>
    </>
  );
}
