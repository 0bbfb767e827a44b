#pragma once
#include "marian_base.h"
