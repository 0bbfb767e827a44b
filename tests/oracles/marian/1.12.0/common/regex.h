#pragma once

#include <regex>
namespace regex = std;
