entry @red3d_max_i32_dim0(%arg0: tile<ptr<i32>>, %arg1: tile<ptr<i32>>) {
  %0 = make_token : token
  %1, %2, %3 = get_tile_block_id : tile<i32>
  %4 = assume div_by<16>, %arg0 : tile<ptr<i32>>
  %5 = make_tensor_view %4, shape = [4, 8, 16], strides = [128, 16, 1] : tensor_view<4x8x16xi32, strides=[128,16,1]>
  %6 = make_partition_view %5 : partition_view<tile=(4x8x16), padding_value = zero, tensor_view<4x8x16xi32, strides=[128,16,1]>>
  %7, %8 = load_view_tko weak %6[%1, %2, %3] token = %0 : partition_view<tile=(4x8x16), padding_value = zero, tensor_view<4x8x16xi32, strides=[128,16,1]>>, tile<i32> -> tile<4x8x16xi32>, token
  %9 = reduce %7 dim=0 identities=[-2147483648 : i32] : tile<4x8x16xi32> -> tile<8x16xi32> 
  (%10: tile<i32>, %11: tile<i32>) {
    %12 = maxi %10, %11 signed : tile<i32>
    yield %12 : tile<i32>
  }
  %13 = assume div_by<16>, %arg1 : tile<ptr<i32>>
  %14 = make_tensor_view %13, shape = [8, 16], strides = [16, 1] : tensor_view<8x16xi32, strides=[16,1]>
  %15 = make_partition_view %14 : partition_view<tile=(8x16), padding_value = zero, tensor_view<8x16xi32, strides=[16,1]>>
  %16 = store_view_tko weak %9, %15[%1, %2] token = %8 : tile<8x16xi32>, partition_view<tile=(8x16), padding_value = zero, tensor_view<8x16xi32, strides=[16,1]>>, tile<i32> -> token
  return
}
