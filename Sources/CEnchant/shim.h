/* CEnchant: Debian's Enchant 2 (libenchant-2-dev 2.3) for NotesCore's thin spelling wrapper
 * (Sources/NotesCore/Spelling/SpellingBroker.swift). Enchant picks the provider per language
 * (/usr/share/enchant-2/enchant.ordering: Hunspell first) and keeps the user's personal word
 * list (~/.config/enchant/LANG.dic), shared with every other Enchant application. */
#ifndef NOTULA_CENCHANT_SHIM_H
#define NOTULA_CENCHANT_SHIM_H
#include <enchant.h>
#endif
