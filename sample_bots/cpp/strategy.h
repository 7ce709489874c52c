// The decisions of the C++ sample bot, apart from the serving (bot.cpp), so that they
// read on their own.
#pragma once

#include "euchre/v1/bot.pb.h"

// The position in request.legal_actions() of the action to take. Chosen from the
// request alone (the view and the legal actions), so one process plays any number of
// games at once with no state to keep; `coloured_jokers` is the one rule it needs
// besides (RuleSet.coloured_jokers, from Hello).
int choose(const euchre::v1::DecideRequest& request, bool coloured_jokers);
