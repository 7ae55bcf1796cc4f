entry @transpose_ptr_f32(%arg0: tile<ptr<f32>>, %arg1: tile<ptr<f32>>) {
  %0 = make_token : token
  %1, %2, %3 = get_tile_block_id : tile<i32>
  %4 = assume div_by<16>, %arg0 : tile<ptr<f32>>
  %5 = make_tensor_view %4, shape = [128, 64], strides = [64, 1] : tensor_view<128x64xf32, strides=[64,1]>
  %6 = make_partition_view %5 : partition_view<tile=(32x32), padding_value = zero, tensor_view<128x64xf32, strides=[64,1]>>
  %7, %8 = load_view_tko weak %6[%1, %2] token = %0 : partition_view<tile=(32x32), padding_value = zero, tensor_view<128x64xf32, strides=[64,1]>>, tile<i32> -> tile<32x32xf32>, token
  %9 = reshape %arg1 : tile<ptr<f32>> -> tile<1x1xptr<f32>>
  %10 = broadcast %9 : tile<1x1xptr<f32>> -> tile<32x32xptr<f32>>
  %11 = constant <i32: 4096> : tile<i32>
  %12 = muli %2, %11 : tile<i32>
  %13 = constant <i32: 32> : tile<i32>
  %14 = muli %1, %13 : tile<i32>
  %15 = addi %12, %14 : tile<i32>
  %16 = reshape %15 : tile<i32> -> tile<1x1xi32>
  %17 = broadcast %16 : tile<1x1xi32> -> tile<32x1xi32>
  %18 = iota : tile<32xi32>
  %19 = reshape %18 : tile<32xi32> -> tile<32x1xi32>
  %20 = addi %17, %19 : tile<32x1xi32>
  %21 = broadcast %20 : tile<32x1xi32> -> tile<32x32xi32>
  %22 = reshape %18 : tile<32xi32> -> tile<1x32xi32>
  %23 = constant <i32: 128> : tile<1x32xi32>
  %24 = muli %22, %23 : tile<1x32xi32>
  %25 = broadcast %24 : tile<1x32xi32> -> tile<32x32xi32>
  %26 = addi %21, %25 : tile<32x32xi32>
  %27 = offset %10, %26 : tile<32x32xptr<f32>>, tile<32x32xi32> -> tile<32x32xptr<f32>>
  %28 = store_ptr_tko weak %27, %7 token=%8 : tile<32x32xptr<f32>>, tile<32x32xf32> -> token
  return
}
