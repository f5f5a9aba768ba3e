//! Editing a Rush Hour board by hand: placing, removing, turning and growing vehicles,
//! walls, the board's size; and why an edit is refused ([`EditError`]).

use super::*;

/// Why a layout edit was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EditError {
    /// The cells it needs are not all free and on the board.
    #[error("the vehicle needs free cells on the board")]
    NoRoom,
    /// Every letter is used.
    #[error("at most {MAX_VEHICLES} vehicles")]
    TooMany,
    /// The red car cannot be removed, turned upright or left off the board.
    #[error("the red car A stays horizontal on the board")]
    RedCar,
    /// Nothing to edit at that cell.
    #[error("there is no vehicle there")]
    NoVehicle,
    /// The board size is out of range.
    #[error("boards are from {MIN_SIDE} x {MIN_SIDE} to {MAX_SIDE} x {MAX_SIDE}")]
    Size,
}

impl RushHour {
    /// Edits: places a vehicle of `len` cells with its top-left end at `cell`, lying along a
    /// row if `horizontal`, lettered with the first free letter.
    ///
    /// # Errors
    /// [`EditError::NoRoom`] if a cell it needs is off the board or taken,
    /// [`EditError::TooMany`] when every letter is used.
    pub fn place(&mut self, cell: Cell, len: u8, horizontal: bool) -> Result<(), EditError> {
        let letter = ('B'..='Z')
            .find(|l| self.vehicles.iter().all(|v| v.letter != *l))
            .ok_or(EditError::TooMany)?;
        let (line, pos) = if horizontal {
            (cell.row, cell.col)
        } else {
            (cell.col, cell.row)
        };
        let vehicle = Vehicle {
            letter,
            len,
            horizontal,
            line: u8::try_from(line).map_err(|_| EditError::NoRoom)?,
        };
        self.add(vehicle, pos)
    }

    /// Adds `vehicle` at `pos` along its line if its cells are free.
    fn add(&mut self, vehicle: Vehicle, pos: usize) -> Result<(), EditError> {
        if self.vehicles.len() >= MAX_VEHICLES {
            return Err(EditError::TooMany);
        }
        if usize::from(vehicle.len) < 2
            || pos + usize::from(vehicle.len) > self.side
            || usize::from(vehicle.line) >= self.side
        {
            return Err(EditError::NoRoom);
        }
        let occupied = self.occupied(&self.positions);
        let i = self.vehicles.len();
        self.vehicles.push(vehicle);
        self.positions[i] = pos as u8;
        if self
            .cells_at(i, pos as u8)
            .any(|c| occupied & self.bit(c) != 0)
        {
            self.vehicles.pop();
            self.positions[i] = 0;
            return Err(EditError::NoRoom);
        }
        self.sort_vehicles();
        Ok(())
    }

    /// Keeps the vehicles in letter order (the red car first).
    fn sort_vehicles(&mut self) {
        let mut order: Vec<(Vehicle, u8)> = self
            .vehicles
            .iter()
            .copied()
            .zip(self.positions.iter().copied())
            .collect();
        order.sort_by_key(|(v, _)| v.letter);
        self.positions = [0; MAX_VEHICLES];
        self.vehicles.clear();
        for (i, (v, p)) in order.into_iter().enumerate() {
            self.vehicles.push(v);
            self.positions[i] = p;
        }
    }

    /// Edits: removes the vehicle at `cell`.
    ///
    /// # Errors
    /// [`EditError::NoVehicle`] if none is there, [`EditError::RedCar`] for the red car.
    pub fn remove_at(&mut self, cell: Cell) -> Result<(), EditError> {
        let i = self.vehicle_at(cell).ok_or(EditError::NoVehicle)?;
        if i == 0 {
            return Err(EditError::RedCar);
        }
        self.vehicles.remove(i);
        self.positions.copy_within(i + 1.., i);
        self.positions[MAX_VEHICLES - 1] = 0;
        Ok(())
    }

    /// Edits: turns the vehicle at `cell` about its top-left cell (horizontal to vertical and
    /// back), or makes it one cell longer (`grow` 1) or shorter (-1, never below 2).
    ///
    /// # Errors
    /// [`EditError::NoVehicle`] if none is there, [`EditError::RedCar`] when the red car would
    /// stand upright, [`EditError::NoRoom`] when the new cells are not free.
    pub fn reshape_at(&mut self, cell: Cell, rotate: bool, grow: i8) -> Result<(), EditError> {
        let i = self.vehicle_at(cell).ok_or(EditError::NoVehicle)?;
        if rotate && i == 0 {
            return Err(EditError::RedCar);
        }
        let old = (self.vehicles[i], self.positions[i]);
        let first = self.cells_at(i, old.1).next().ok_or(EditError::NoVehicle)?;
        let mut v = old.0;
        v.len = v.len.saturating_add_signed(grow).max(2);
        if rotate {
            v.horizontal = !v.horizontal;
        }
        let (line, pos) = if v.horizontal {
            (first.row, first.col)
        } else {
            (first.col, first.row)
        };
        v.line = line as u8;
        self.vehicles.remove(i);
        self.positions.copy_within(i + 1.., i);
        let result = self.add(v, pos);
        if result.is_err() {
            // Put it back as it was (its cells were free before).
            let _ = self.add(old.0, usize::from(old.1));
        }
        result
    }

    /// Edits: makes `cell` a wall, or frees a wall there.
    ///
    /// # Errors
    /// [`EditError::NoRoom`] if a vehicle stands there or the cell is off the board.
    pub fn toggle_wall(&mut self, cell: Cell) -> Result<(), EditError> {
        if cell.row >= self.side || cell.col >= self.side || self.vehicle_at(cell).is_some() {
            return Err(EditError::NoRoom);
        }
        self.walls ^= self.bit(cell);
        Ok(())
    }

    /// Edits: changes the side to `side`, keeping the walls and vehicles that still fit.
    ///
    /// # Errors
    /// [`EditError::Size`] out of range, [`EditError::RedCar`] if the red car would not fit.
    pub fn resize(&mut self, side: usize) -> Result<(), EditError> {
        if !(MIN_SIDE..=MAX_SIDE).contains(&side) {
            return Err(EditError::Size);
        }
        let mut board = RushHour {
            side,
            walls: 0,
            vehicles: Vec::new(),
            positions: [0; MAX_VEHICLES],
            metric: self.metric,
            hand: None,
        };
        for r in 0..side.min(self.side) {
            for c in 0..side.min(self.side) {
                if self.is_wall(Cell::new(r, c)) {
                    board.walls |= board.bit(Cell::new(r, c));
                }
            }
        }
        for (i, v) in self.vehicles.iter().enumerate() {
            let added = board.add(*v, usize::from(self.positions[i]));
            if i == 0 && added.is_err() {
                return Err(EditError::RedCar);
            }
        }
        *self = board;
        Ok(())
    }
}
