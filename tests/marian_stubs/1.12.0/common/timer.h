#pragma once
#include "marian_stubs.h"
