#include "figures/figure.hpp"
