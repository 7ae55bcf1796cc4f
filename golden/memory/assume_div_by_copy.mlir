entry @assume_div_by_copy(%arg0: tile<ptr<f32>>, %arg1: tile<ptr<f32>>) {
  %0 = make_token : token
  %1, %2, %3 = get_tile_block_id : tile<i32>
  %4 = reshape %arg0 : tile<ptr<f32>> -> tile<1xptr<f32>>
  %5 = broadcast %4 : tile<1xptr<f32>> -> tile<256xptr<f32>>
  %6 = constant <i32: 256> : tile<i32>
  %7 = muli %1, %6 : tile<i32>
  %8 = assume div_by<16>, %7 : tile<i32>
  %9 = reshape %8 : tile<i32> -> tile<1xi32>
  %10 = broadcast %9 : tile<1xi32> -> tile<256xi32>
  %11 = iota : tile<256xi32>
  %12 = addi %10, %11 : tile<256xi32>
  %13 = offset %5, %12 : tile<256xptr<f32>>, tile<256xi32> -> tile<256xptr<f32>>
  %14, %15 = load_ptr_tko weak %13 token=%0 : tile<256xptr<f32>> -> tile<256xf32>, token
  %16 = constant <i32: 4> : tile<256xi32>
  %17 = muli %11, %16 : tile<256xi32>
  %18 = assume div_by<4, every 4 along 0>, %17 : tile<256xi32>
  %19 = itof %18 signed  : tile<256xi32> -> tile<256xf32>
  %20 = addf %14, %19  : tile<256xf32>
  %21 = reshape %arg1 : tile<ptr<f32>> -> tile<1xptr<f32>>
  %22 = broadcast %21 : tile<1xptr<f32>> -> tile<256xptr<f32>>
  %23 = offset %22, %12 : tile<256xptr<f32>>, tile<256xi32> -> tile<256xptr<f32>>
  %24 = store_ptr_tko weak %23, %20 token=%15 : tile<256xptr<f32>>, tile<256xf32> -> token
  return
}
